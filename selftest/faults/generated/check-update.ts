/**
 * Faults of the reference service written from the check update's tests (support/check-update/table.ts),
 * through the same cell generation the suite runs: every value the document forbids, accepted
 * (`accept:<type>:<pattern>`, too loose), every value it allows, refused (`refuse:<type>:<pattern>`, too
 * strict), and a refused body that still stores one property of each kind (`leak:<property>`, CU-7).
 * The catch expected: a failure on the cell's clause, at place check-update, with the cell's value class
 * (and, for a valid value refused, on CU-1 there too).
 *
 * The target is the reference: its spec (specs/openapi.json) gives the property names, frequencies and
 * nullability, exactly as a run against it resolves them. Cells the target may take or refuse ('either')
 * have no fault: neither answer is wrong.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { planCarriers } from '../../../support/check-update/carriers';
import { cellsFor, unitsOf, type Cell } from '../../../support/check-update/cells';
import type { CellContext } from '../../../support/check-update/value-rules';
import { EXPECTED_TYPE, UPDATE_TESTS } from '../../../support/check-update/table';
import { resolveVocabulary, specFactsOf } from '../../../support/check-update/vocabulary';
import type { SpecOperation } from '../../../support/spec/spec';
import type { GeneratedFault } from '../types';
import { TEST_FILES } from '../../../support/run/test-files';
import { declaredCaseSeed } from '../../../support/run/config';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const FILES = [TEST_FILES.checkUpdate];
const SPEC_FILE = join(__dirname, '../../../specs/openapi.json');

/** A copy of a spec node with its local $refs replaced by what they name (the spec has no cycles here). */
function deref(doc: Json, node: Json, depth = 0): Json {
  if (depth > 20 || node === null || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    const target = node.$ref
      .slice(2)
      .split('/')
      .reduce((n: Json, k: string) => n?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return deref(doc, target, depth + 1);
  }
  if (Array.isArray(node)) return node.map((x) => deref(doc, x, depth + 1));
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(doc, v, depth + 1)]));
}

/** The reference's operation at a path template and method, its $refs resolved (read from the reference's spec). */
export function referenceOperation(method: string, pathTemplate: string): Json {
  const doc = JSON.parse(readFileSync(SPEC_FILE, 'utf8'));
  const op = doc.paths?.[pathTemplate]?.[method];
  if (!op) throw new Error(`${SPEC_FILE}: no ${method.toUpperCase()} ${pathTemplate}`);
  return deref(doc, op);
}

/** The reference's check update operation (the non-GET operation on a check path whose body has frequencyOffset). */
function findReferenceUpdate(): { op: Json; body: Json } {
  const doc = JSON.parse(readFileSync(SPEC_FILE, 'utf8'));
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    if (!/\/checks\/\{[^}]+\}$/.test(path)) continue;
    for (const [method, op] of Object.entries<Json>(item)) {
      const body = deref(doc, op?.requestBody?.content?.['application/json']?.schema);
      if (method !== 'get' && body?.properties?.frequencyOffset) return { op: deref(doc, op), body };
    }
  }
  throw new Error(`${SPEC_FILE}: no check update whose body has frequencyOffset`);
}

let referenceUpdateOnce: { op: Json; body: Json } | undefined;
/** Read once per process: the errors generator asks for it too. */
export const referenceUpdate = () => (referenceUpdateOnce ??= findReferenceUpdate());

const patternOf = (cell: Cell) => encodeURIComponent(JSON.stringify(cell.body));

function checkUpdateFaults(): GeneratedFault[] {
  const { op, body } = referenceUpdate();
  const names = resolveVocabulary(body);
  const spec = specFactsOf(body);
  const frequencies = (spec.enumOf(names.frequency!) ?? []).filter((f): f is number => typeof f === 'number').sort((a, b) => a - b);
  const queryParam = (op.parameters ?? []).find((p: Json) => p?.in === 'query' && p?.schema?.type === 'boolean')?.name;
  const out = new Map<string, GeneratedFault>();
  // A near miss is proven once per rule and operator (pairwise: the checks take turns in the cells); each
  // fault a check-type change makes must run alone, the self-test's dearest kind.
  const operatorsProven = new Set<string>();
  // A valid value answered with a 5xx (crash:<type>:<pattern>), once per rule: named on the rule's own clause.
  const crashesProven = new Set<string>();
  for (const t of UPDATE_TESTS) {
    for (const check of t.places) {
      // The run's seed: the suite generates the same values from it.
      const ctx: CellContext = { check, ownType: EXPECTED_TYPE[check], names, frequencies, spec, queryParam, seed: declaredCaseSeed(), otherCheck: true };
      for (const cell of unitsOf(cellsFor(t.key, ctx))) {
        if (cell.expect === 'either') continue;
        const operator = /:(near-miss:[a-z-]+)/.exec(cell.valueClass)?.[1];
        const proven = operator && `${cell.clause}:${cell.valueClass.split(':')[1]}:${operator}`;
        if (proven && operatorsProven.has(proven)) continue;
        if (proven) operatorsProven.add(proven);
        const loose = cell.expect === 'invalid';
        const fault = `${loose ? 'accept' : 'refuse'}:${EXPECTED_TYPE[check]}:${patternOf(cell)}`;
        // One fault per pattern: the first cell that sends it names the catch (later ones catch it too).
        if (!out.has(fault))
          out.set(fault, {
            fault,
            clause: cell.clause,
            // A valid value refused breaks CU-1 too (a valid update is accepted): caught on both.
            ...(!loose && cell.clause !== 'CU-1' ? { also: ['CU-1' as const] } : {}),
            place: 'check-update',
            valueClass: cell.valueClass,
            direction: loose ? 'loose' : 'strict',
            files: FILES,
          });
        if (!loose && !crashesProven.has(cell.clause)) {
          crashesProven.add(cell.clause);
          const crash = `crash:${EXPECTED_TYPE[check]}:${patternOf(cell)}`;
          out.set(crash, { ...out.get(fault)!, fault: crash });
        }
      }
    }
  }
  // CU-7: a refused body that still stores one property, of each kind the refused bodies carry, and a
  // number (the offset a refused frequencyOffset cell sends).
  const carriers = planCarriers({ op } as SpecOperation, names);
  for (const property of [...Object.values(carriers), names.frequencyOffset!]) {
    out.set(`leak:${property}`, { fault: `leak:${property}`, clause: 'CU-7', place: 'check-update', direction: 'loose', files: FILES });
  }
  return [...out.values()];
}

export const CHECK_UPDATE_GENERATED: GeneratedFault[] = checkUpdateFaults();
