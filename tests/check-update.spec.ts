/**
 * CU and FO: the deprecated check update, against any implementation. Every body rule of the document,
 * the frequencyOffset matrix (each frequency at its boundaries, decided by the one oracle), atomicity
 * (every rejected body carries a valid new name, and a read-back shows nothing changed), and a final
 * restore that leaves the checks as the run found them. The update's method and the paths are the
 * target's spec's (the document gives neither), the paths relative to BASE_URL.
 *
 * The tests change shared state (one or two checks), so this file runs in order in one worker. Each
 * cell is a named step: a broken cell shows red in the report and its failures name it, while the test
 * goes on to the next cell.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { OpenAPIV3 } from 'openapi-types';
import {
  changedProperties, currentRunId, describeRestore, removeSnapshot, restoreBody, restoreCheck, restored, sameValue, snapshotPath,
  SnapshotConflict, takeSnapshot, writableProperties, type CheckRoutes, type CheckState, type RestoreResult, type Send,
  type SnapshotFile,
} from '../support/check-update/snapshot';
import { ApiClient } from '../support/http/client';
import type { ClauseId } from '../support/document/clauses';
import { conform } from '../support/checks/conformance';
import { CHECK_TYPES, DESCRIPTION_MAX, LOCATIONS, RUNTIME_VERSIONS } from '../support/document/facts';
import { checkErrorResponse } from '../support/checks/error-checks';
import { oneLine, type Exchange } from '../support/http/exchange';
import { formatFailure, show } from '../support/checks/failure';
import { clauses, test, type Contract } from '../support/fixtures';
import { frequencyOffsetRuling, maxOffset } from '../support/check-update/frequency-offset';
import {
  bodyProperty, frequenciesToTest, missingReason, missingRoles, noteFinding, PUBLISHED_NAMES, requiresFullBody, vocabularyOf,
  type BodyRole, type UpdateVocabulary,
} from '../support/check-update/vocabulary';
import type { Config } from '../support/run/config';
import { redact } from '../support/http/redact';
import type { SchemaValidator } from '../support/spec/schema-validator';
import type { Spec } from '../support/spec/spec';
import { fillPath, type Target } from '../support/spec/target';
import type { Verdict } from '../support/checks/verdict';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Body property names. The document names only frequencyOffset and retryStrategy; the others are
 * resolved from the target's update body schema by meaning, the published spec's names first (see
 * support/update-vocabulary). A test whose properties the body lacks skips, naming them.
 */
type Names = Record<BodyRole, string>;

/** Values the document does not allow, each plausible enough to be a real client's mistake. */
const UNKNOWN = { location: 'mars-north-1', runtime: '1999.01', checkType: 'SMTP' } as const;

// ---------------------------------------------------------------------------------------------------
// The run's state: the snapshot (also on disk) and the last state read of each check.

interface Session {
  file: string;
  snapshot: SnapshotFile;
  routes: CheckRoutes;
  writable: string[];
  current: Map<string, CheckState>;
  /** The body property of each thing the document describes by meaning. */
  vocabulary: UpdateVocabulary;
  /** The body schema lists required properties (a replace): each update carries the check's whole writable state. */
  fullBody: boolean;
  /** The auto-subscribe query parameter, sent false on every update that does not test it. */
  query?: Record<string, string>;
  queryParam?: string;
}

let session: Session | undefined;
let setupError: Error | undefined;

const isState = (v: unknown): v is CheckState => v !== null && typeof v === 'object' && !Array.isArray(v);
const probeName = (what: string) => `contract-suite ${what} ${randomUUID().slice(0, 8)}`;
const pick = (state: CheckState | undefined, keys: string[]) => Object.fromEntries(keys.map((k) => [k, state?.[k] ?? null]));

function autoSubscribeParam(target: Target): string | undefined {
  const params = (target.updateOp?.op.parameters ?? []) as OpenAPIV3.ParameterObject[];
  return params.find((p) => p?.in === 'query' && (p.schema as Json)?.type === 'boolean')?.name;
}

/** The update's method and the check's paths, relative to BASE_URL (undefined: the spec lacks one). */
function routesOf(target: Target): CheckRoutes | undefined {
  const { updatePath, readPath, updateMethod } = target;
  if (!target.updateOp || !target.readCheckOp || !updatePath || !readPath) return undefined;
  return { method: updateMethod, updatePath: (id) => fillPath(updatePath, id), readPath: (id) => fillPath(readPath, id) };
}

function plainClient(request: ConstructorParameters<typeof ApiClient>[0], config: Config, target: Target): Send {
  const client = new ApiClient(request, config.baseUrl, { apiKey: config.apiKey, accountId: config.accountId, accountHeader: target.accountHeader }, undefined, config.rateLimit);
  return (method, path, options) => client.call(method, path, options);
}

/** Skips (with the variable or spec gap named) or fails a test that would change a check it cannot. */
function requireCheck(config: Config, target: Target, which: 'api' | 'browser', roles: BodyRole[] = [], verdict?: Verdict): { id: string; s: Session; P: Names } {
  test.skip(!target.updateOp || !target.updatePath, 'the target\'s spec has no check update whose body has frequencyOffset (see SPEC-5): nothing to send');
  test.skip(!target.readCheckOp || !target.readPath, `the target's spec declares no GET ${target.updateOp?.path}: the suite cannot read a check back, so it changes none`);
  const id = which === 'api' ? config.checkId : config.browserCheckId;
  test.skip(!id && which === 'api', 'CHECK_ID is not set: against a remote target the update tests change only an API check named by CHECK_ID (and restore it)');
  test.skip(!id && which === 'browser', 'BROWSER_CHECK_ID is not set: against a remote target the browser cells change only a browser check named by BROWSER_CHECK_ID (and restore it)');
  test.skip(setupError instanceof SnapshotConflict, setupError?.message ?? '');
  if (setupError) throw setupError;
  if (!session) throw new Error('the checks were not read before the first update (beforeAll did not run)');
  // Every test sends a name: with the valid change it carries (CU-1) or beside an invalid one (CU-7).
  const missing = missingRoles(session.vocabulary, ['name', ...roles]);
  if (missing.length) verdict?.note('spec-finding', missingReason(missing));
  test.skip(missing.length > 0, missingReason(missing));
  return { id: id!, s: session, P: session.vocabulary as Names };
}

/** The check's type as last read (the fallback where the body has no check type property or the read none). */
const typeOf = (s: Session, id: string, fallback: string) => String((s.vocabulary.checkType && s.current.get(id)?.[s.vocabulary.checkType]) ?? fallback);

/**
 * A test's time limit from the requests its cells send (a remote target may take a second or two per
 * request): 30 s, plus 2 s per request. Each cell sends the update and a read, and one the target must
 * or may refuse may add a restore (a read, at most two writes, their reads).
 */
function budget(cells: Cell[], extraRequests = 0): void {
  const requests = cells.reduce((n, c) => n + 2 + (c.valid && !c.mayRefuse ? 0 : 5), extraRequests);
  test.setTimeout(30_000 + 2_000 * requests);
}

// ---------------------------------------------------------------------------------------------------
// One cell: send a body, check the answer, read the check back.

interface Fixtures {
  api: ApiClient;
  contract: Contract;
  verdict: Verdict;
  target: Target;
  /** Needed by cells the target may either take or refuse: their answer is judged once its status is known. */
  spec?: Spec;
  validator?: SchemaValidator;
}

interface Cell {
  title: string;
  checkId: string;
  body: CheckState;
  /** What the document says the target must do with the body. */
  valid: boolean;
  /** The clause that decides acceptance. */
  clause: ClauseId;
  query?: Record<string, string>;
  /**
   * A valid body that the target may also refuse (the document lets it): accepted, it must read back;
   * refused with a 4xx, nothing may change (CU-7); anything else fails the cell's clause. Accepted, the
   * check is put back at once, so that the next cell starts from the check as it was.
   */
  mayRefuse?: boolean;
}

class CellFailed extends Error {}

/** Names the cell in the failures it added, and fails its step (the test goes on to the next cell). */
function closeCell(verdict: Verdict, from: number, _title: string): void {
  if (verdict.failures.length > from) throw new CellFailed(verdict.failures.slice(from).map(formatFailure).join('\n\n'));
}

/** Sends a body the target may take (2xx) or refuse (4xx), and judges the answer by which it did. */
async function sendRefusable({ api, verdict, target, spec, validator }: Fixtures, cell: Cell, path: string, options: { body: CheckState; query?: Record<string, string> }): Promise<Exchange> {
  if (!spec || !validator) throw new Error(`cell "${cell.title}" may be refused: its test must pass the spec and validator fixtures`);
  const ex = await api.call(target.updateMethod, path, options);
  if (ex.status >= 200 && ex.status < 300) conform(verdict, spec, validator, target.updateOp, ex, 'valid', cell.clause);
  else if (ex.status >= 400 && ex.status < 500) conform(verdict, spec, validator, target.updateOp, ex, 'invalid', cell.clause);
  else verdict.fail(cell.clause, `${ex.status >= 500 ? 'server error' : 'an unexpected status'} instead of taking or refusing the body (${oneLine(ex)})`, ex.status, 'a 2xx (the change made, and read back) or a 4xx (refused, nothing changed)');
  return ex;
}

/** Runs one cell as a step; returns the update's status (undefined when it was not sent). */
async function runCell(outer: Fixtures, s: Session, cell: Cell): Promise<number | undefined> {
  // Every check of the cell names it: the failures say which cell broke.
  const fx = { ...outer, verdict: outer.verdict.at({ cell: cell.title }), contract: outer.contract.at({ cell: cell.title }) };
  const { api, contract, verdict, target } = fx;
  const path = s.routes.updatePath(cell.checkId);
  const readPath = s.routes.readPath(cell.checkId);
  // Atomicity: a body the target must (or may) reject also carries a valid change, which must not stick either.
  const body = cell.valid && !cell.mayRefuse ? cell.body : { [s.vocabulary.name!]: probeName(cell.valid ? 'refusable' : 'rejected'), ...cell.body };
  const from = verdict.failures.length;
  let status: number | undefined;
  await test
    .step(cell.title, async () => {
      const before = s.current.get(cell.checkId)!;
      // A replace (required properties) takes the whole state: the restore's body with the cell's change.
      const sent = s.fullBody ? { ...restoreBody(before, s.writable), ...body } : body;
      const options = { body: sent, query: cell.query ?? s.query };
      const ex = cell.mayRefuse
        ? await sendRefusable(fx, cell, path, options)
        : await contract.send(target.updateOp, target.updateMethod, path, cell.valid ? 'valid' : 'invalid', cell.clause, options);
      status = ex.status;
      const accepted = ex.status >= 200 && ex.status < 300;
      if (ex.status >= 400) checkErrorResponse(verdict, ex);
      if (cell.valid && accepted && isState(ex.json)) {
        for (const k of Object.keys(body).filter((k) => k in (ex.json as CheckState))) {
          verdict.check('CU-1', sameValue(body[k], (ex.json as CheckState)[k]), `the update's response does not show the new ${k}`, (ex.json as CheckState)[k], show(body[k]));
        }
      }
      // What the read shows is judged under the clause it follows from: an accepted invalid body is the
      // cell's own rule broken, a rejected one is atomicity, a valid one is persistence.
      const readClause: ClauseId = !accepted ? 'CU-7' : cell.valid ? 'CU-1' : cell.clause;
      const back = await contract.send(target.readCheckOp, 'GET', readPath, 'valid', readClause);
      const after = back.status === 200 && isState(back.json) ? back.json : undefined;
      if (!after) return closeCell(verdict, from, cell.title);
      if (cell.valid && accepted) {
        for (const k of Object.keys(body)) {
          verdict.check('CU-1', sameValue(body[k], after[k]), `read back after an accepted update: ${k} is not the value sent`, after[k] ?? null, show(body[k]));
        }
      }
      if (!accepted) {
        const changed = changedProperties(before, after, s.writable);
        verdict.check('CU-7', changed.length === 0, `an update answered ${ex.status} and still changed ${changed.join(', ')}`, pick(after, changed), `unchanged: ${show(pick(before, changed))}`);
      }
      s.current.set(cell.checkId, after);
      // The target took a body the document forbids: put the check straight back, so that the cells
      // after this one start from a valid state and a real check does not run so until the end. A body
      // it may refuse (another check type) is put back too, so the next cell starts from the check as it was.
      if (accepted && (!cell.valid || cell.mayRefuse) && changedProperties(before, after, s.writable).length) {
        const send: Send = (method, p, o) => api.call(method, p, o);
        const r = await restoreCheck(send, send, s.routes, cell.checkId, before, s.writable, s.query, coupledOf(s.vocabulary));
        verdict.note('restored', `after the accepted ${cell.valid ? '' : 'invalid '}body of "${cell.title}": ${describeRestore(r)}`);
        if (restored(r)) s.current.set(cell.checkId, before);
        else s.current.set(cell.checkId, (await api.call('GET', readPath)).json as CheckState);
      }
      closeCell(verdict, from, cell.title);
    })
    .catch((e) => {
      if (!(e instanceof CellFailed)) throw e;
    });
  return status;
}

const runCells = async (fx: Fixtures, s: Session, cells: Cell[]) => {
  budget(cells);
  for (const cell of cells) await runCell(fx, s, cell);
};

/** The properties a restore sends together, by the target's names. */
const coupledOf = (v: UpdateVocabulary) => [v.checkType, v.frequency, v.frequencyOffset].filter((n): n is string => !!n);

/** A cell of one property: valid or not is fixed by the document's rule for that property. */
const propertyCell = (checkId: string, clause: ClauseId, property: string, label: string, value: unknown, valid: boolean): Cell => ({
  title: `${property} ${label}: must be ${valid ? 'accepted' : 'rejected'}`,
  checkId,
  body: { [property]: value },
  valid,
  clause,
});

/** A frequencyOffset cell, decided by the oracle for the check's type. */
function offsetCell(s: Session, checkId: string, fallbackType: string, frequency: number, offset: unknown): Cell {
  const type = typeOf(s, checkId, fallbackType);
  const P = s.vocabulary as Names;
  const r = frequencyOffsetRuling(type, frequency, offset);
  return {
    title: `${type} check, frequency ${frequency}, offset ${show(offset)}: must be ${r.accepted ? 'accepted' : 'rejected'} (${r.clause})`,
    checkId,
    body: { [P.frequency]: frequency, [P.frequencyOffset]: offset },
    valid: r.accepted,
    clause: r.clause,
  };
}

/** The boundary offsets of a frequency: 0, 1, max, max+1; for 0, 10/20/30 and their neighbours. */
const boundaryOffsets = (f: number) => (f === 0 ? [9, 10, 11, 19, 20, 21, 29, 30, 31] : [0, 1, maxOffset(f), maxOffset(f) + 1]);

// ---------------------------------------------------------------------------------------------------

test.describe('deprecated check update', () => {
  // Shared state: in order, one worker (the project is fullyParallel otherwise).
  test.describe.configure({ mode: 'default' });

  test.beforeAll(async ({ request, config, target }) => {
    const ids = [config.checkId, config.browserCheckId].filter((i): i is string => !!i);
    const routes = routesOf(target);
    if (!ids.length || !routes) return;
    const send = plainClient(request, config, target);
    const queryParam = autoSubscribeParam(target);
    const query = queryParam ? { [queryParam]: 'false' } : undefined;
    const file = snapshotPath(config.reportDir);
    try {
      // The body schema's properties; without them, at least the ones this file changes.
      const fromSpec = writableProperties(target.updateOp);
      const writable = fromSpec.length ? fromSpec : Object.values(PUBLISHED_NAMES);
      const vocabulary = vocabularyOf(target);
      const coupled = coupledOf(vocabulary);
      // A new worker of this same run (after a failed test) finds the run's own snapshot: kept, not
      // restored; the current state is read. An earlier run's snapshot is put back first.
      const taken = await takeSnapshot({ file, baseUrl: config.baseUrl, embedded: config.embedded, runId: currentRunId(), ids, routes, send, writable, query, coupled });
      session = { file, snapshot: taken.snapshot, routes, writable, current: new Map(Object.entries(taken.current)), vocabulary, fullBody: requiresFullBody(target), query, queryParam };
      const notes = taken.reused ? [`this run's snapshot of ${taken.snapshot.savedAt} kept (a new worker after a failed test); the checks were read as they are now`] : taken.recovered.map((r) => `left by an earlier run: ${describeRestore(r)}`);
      for (const n of notes) test.info().annotations.push({ type: 'restored', description: redact(n) });
    } catch (e) {
      setupError = e as Error;
    }
  });

  test.afterAll(async ({ request, config, target }) => {
    // The final test restores and removes the file; if it did not run (filtered, failed, interrupted), do it here.
    if (!session) return;
    const s = session;
    session = undefined;
    if (!existsSync(s.file)) return;
    const send = plainClient(request, config, target);
    const results: RestoreResult[] = [];
    for (const [id, state] of Object.entries(s.snapshot.checks)) {
      results.push(await restoreCheck(send, send, s.routes, id, state, s.writable, s.query, coupledOf(s.vocabulary)));
    }
    if (results.every(restored)) removeSnapshot(s.file);
    const text = redact(`restored after the tests: ${results.map(describeRestore).join('; ')}`);
    test.info().annotations.push({ type: 'restored', description: text });
    if (!results.every(restored)) process.stderr.write(`check update: ${text}\nthe snapshot stays in ${s.file}; the next run restores it\n`);
  });

  // --- CU-1 -----------------------------------------------------------------------------------------

  test('a valid update is accepted and reads back with the new values', { annotation: clauses('CU-1') }, async ({ api, contract, verdict, target, config }) => {
    const { id, s, P } = requireCheck(config, target, 'api', ['description'], verdict);
    noteFinding(verdict, target, P.name, undefined, 'name of the check', 'name');
    const body = { [P.name]: probeName('CU-1'), [P.description]: 'Set by the contract suite (CU-1); restored at the end of the run.' };
    await runCell({ api, contract, verdict, target }, s, { title: 'name and description', checkId: id, body, valid: true, clause: 'CU-1' });
  });

  test('the auto-subscribe query parameter is accepted as true and as false', { annotation: clauses('CU-1') }, async ({ api, contract, verdict, target, config }) => {
    const { id, s, P } = requireCheck(config, target, 'api', [], verdict);
    test.skip(!s.queryParam, 'the target\'s spec declares no boolean query parameter on the update (see SPEC-5)');
    await runCells({ api, contract, verdict, target }, s, ['true', 'false'].map((v) => ({
      title: `${s.queryParam}=${v}: must be accepted`, checkId: id, body: { [P.name]: probeName(`query ${v}`) }, valid: true, clause: 'CU-1', query: { [s.queryParam!]: v },
    })));
  });

  // --- FO: the matrix -------------------------------------------------------------------------------

  // One test per range of the document's rules, one step per cell. The frequencies are the spec's
  // where it enumerates them (an extra one is tested too), else the service's known set.
  const RANGES: Array<{ title: string; clauses: ClauseId[]; holds: (f: number) => boolean }> = [
    { title: 'frequency 0 on the API check: offsets 10, 20, 30 and their neighbours', clauses: ['FO-1'], holds: (f) => f === 0 },
    { title: 'frequencies 1 to 60: offsets 0, 1, floor(f * 10) and one more', clauses: ['FO-2', 'FO-4'], holds: (f) => f > 0 && f <= 60 },
    { title: 'frequencies above 60: offsets 0, 1, ceil(f / 60) and one more', clauses: ['FO-3', 'FO-4'], holds: (f) => f > 60 },
  ];

  for (const range of RANGES) {
    test(range.title, { annotation: clauses(...range.clauses, 'CU-7', 'CU-1') }, async ({ api, contract, verdict, target, config }) => {
      const { id, s, P } = requireCheck(config, target, 'api', ['frequency', 'frequencyOffset'], verdict);
      const frequencies = frequenciesToTest(verdict, target, P.frequency).filter(range.holds);
      test.skip(frequencies.length === 0, 'the target\'s spec lists no frequency in this range');
      await runCells({ api, contract, verdict, target }, s, frequencies.flatMap((f) => boundaryOffsets(f).map((o) => offsetCell(s, id, 'API', f, o))));
    });
  }

  test('frequencyOffset that is not an integer >= 1 is rejected', { annotation: clauses('FO-4', 'CU-7') }, async ({ api, contract, verdict, target, config }) => {
    const { id, s, P } = requireCheck(config, target, 'api', ['frequency', 'frequencyOffset'], verdict);
    const schema = bodyProperty(target, P.frequencyOffset);
    if (schema && (schema.type !== 'integer' || schema.minimum !== 1)) {
      verdict.note('spec-finding', `frequencyOffset in the target's spec is ${show({ type: schema.type, minimum: schema.minimum })}; the document says integer >= 1`);
    }
    // The frequencies come from the list the matrix tests (the spec's, else the known set): one of 1..60
    // (10 where listed), 0 where listed, one above 60 (120 where listed). A value that is not an integer
    // >= 1 is wrong at any frequency, so the general cells go to whichever of those the list has.
    const listed = frequenciesToTest(verdict, target, P.frequency);
    const pickIn = (holds: (f: number) => boolean, preferred: number) => (listed.includes(preferred) ? preferred : listed.find(holds));
    const low = pickIn((f) => f > 0 && f <= 60, 10);
    const high = pickIn((f) => f > 60, 120);
    const general = low ?? high ?? (listed.includes(0) ? 0 : undefined);
    const cells: Array<[number | undefined, unknown]> = [
      ...([-1, 1.5, '5', null, true] as unknown[]).map((o): [number | undefined, unknown] => [general, o]),
      ...(listed.includes(0) ? ([[0, 10.5], [0, '10']] as Array<[number, unknown]>) : []),
      ...(high !== undefined && high !== general ? ([[high, 1.5]] as Array<[number, unknown]>) : []),
    ];
    test.skip(general === undefined, `the frequency list tested (${listed.join(', ') || 'none'}) has no frequency >= 0 to send the offsets with`);
    await runCells({ api, contract, verdict, target }, s, cells.map(([f, o]) => offsetCell(s, id, 'API', f!, o)));
  });

  test('frequency 0 on the browser check is rejected', { annotation: clauses('FO-5', 'CU-7') }, async ({ api, contract, verdict, target, config }) => {
    const { id, s } = requireCheck(config, target, 'browser', ['frequency', 'frequencyOffset'], verdict);
    const type = typeOf(s, id, 'BROWSER');
    test.skip(type === 'API', `BROWSER_CHECK_ID names an API check (checkType ${type}); frequency 0 is allowed there`);
    await runCells({ api, contract, verdict, target }, s, [10, 20, 30].map((o) => offsetCell(s, id, 'BROWSER', 0, o)));
  });

  // --- CU-2..CU-6: the other body rules --------------------------------------------------------------

  test('description: 500 characters and null accepted, 501 rejected', { annotation: clauses('CU-2', 'CU-7', 'CU-1') }, async ({ api, contract, verdict, target, config }) => {
    const { id, s, P } = requireCheck(config, target, 'api', ['description'], verdict);
    noteFinding(verdict, target, P.description, undefined, 'description, at most 500 characters', 'description');
    const max = bodyProperty(target, P.description)?.maxLength;
    if (max !== undefined && max !== DESCRIPTION_MAX) verdict.note('spec-finding', `description: the target's spec allows ${max} characters; the document says at most ${DESCRIPTION_MAX}`);
    await runCells({ api, contract, verdict, target }, s, [
      propertyCell(id, 'CU-2', P.description, `of ${DESCRIPTION_MAX} characters`, 'd'.repeat(DESCRIPTION_MAX), true),
      propertyCell(id, 'CU-2', P.description, `of ${DESCRIPTION_MAX + 1} characters`, 'd'.repeat(DESCRIPTION_MAX + 1), false),
      propertyCell(id, 'CU-2', P.description, 'null', null, true),
    ]);
  });

  test('groupOrder: 0 and null accepted, -1 and 1.5 rejected', { annotation: clauses('CU-3', 'CU-7', 'CU-1') }, async ({ api, contract, verdict, target, config }) => {
    const { id, s, P } = requireCheck(config, target, 'api', ['groupOrder'], verdict);
    noteFinding(verdict, target, P.groupOrder, undefined, 'group order, integer >= 0 or null', 'groupOrder');
    const schema = bodyProperty(target, P.groupOrder);
    if (schema && (schema.type !== 'integer' || schema.minimum !== 0)) verdict.note('spec-finding', `groupOrder in the target's spec is ${show({ type: schema.type, minimum: schema.minimum })}; the document says integer >= 0`);
    await runCells({ api, contract, verdict, target }, s, [
      propertyCell(id, 'CU-3', P.groupOrder, '0', 0, true),
      propertyCell(id, 'CU-3', P.groupOrder, 'null', null, true),
      propertyCell(id, 'CU-3', P.groupOrder, '-1', -1, false),
      propertyCell(id, 'CU-3', P.groupOrder, '1.5', 1.5, false),
    ]);
  });

  test('locations: one or all 22 accepted; an unknown one or none rejected', { annotation: clauses('CU-4', 'CU-7', 'CU-1') }, async ({ api, contract, verdict, target, config }) => {
    const { id, s, P } = requireCheck(config, target, 'api', ['locations'], verdict);
    noteFinding(verdict, target, P.locations, LOCATIONS, 'data center locations', 'locations');
    await runCells({ api, contract, verdict, target }, s, [
      propertyCell(id, 'CU-4', P.locations, `[${LOCATIONS[0]}]`, [LOCATIONS[0]], true),
      propertyCell(id, 'CU-4', P.locations, `with all ${LOCATIONS.length} documented values`, [...LOCATIONS], true),
      propertyCell(id, 'CU-4', P.locations, `[${LOCATIONS[0]}, ${UNKNOWN.location}]`, [LOCATIONS[0], UNKNOWN.location], false),
      propertyCell(id, 'CU-4', P.locations, '[] (empty)', [], false),
    ]);
  });

  test('runtimeId: every accepted version accepted, one that never existed rejected', { annotation: clauses('CU-5', 'CU-7', 'CU-1') }, async ({ api, contract, verdict, target, config }) => {
    const { id, s, P } = requireCheck(config, target, 'api', ['runtimeId'], verdict);
    noteFinding(verdict, target, P.runtimeId, RUNTIME_VERSIONS, 'runtime version', 'runtimeId');
    await runCells({ api, contract, verdict, target }, s, [
      ...RUNTIME_VERSIONS.map((v) => propertyCell(id, 'CU-5', P.runtimeId, v, v, true)),
      propertyCell(id, 'CU-5', P.runtimeId, UNKNOWN.runtime, UNKNOWN.runtime, false),
    ]);
  });

  test('checkType: the check\'s own type accepted, every other documented type taken or refused without a change, an unknown one rejected', { annotation: clauses('CU-6', 'CU-7', 'CU-1') }, async ({ api, contract, verdict, target, config, spec, validator }) => {
    const { id, s, P } = requireCheck(config, target, 'api', ['checkType', 'frequency', 'frequencyOffset'], verdict);
    noteFinding(verdict, target, P.checkType, CHECK_TYPES, 'check type', 'checkType');
    // The deprecated operation updates an API check or a browser check, and the document names one
    // replacement per type: a target may refuse to turn the check into another type. So the check's own
    // type must be accepted; each other documented type either accepted (and read back; then the check
    // is put back at once) or refused with a 4xx that changes nothing; never a 5xx. Frequency 10 with
    // offset 1 goes along, so that every type is valid whatever frequency an earlier cell left.
    const own = typeOf(s, id, 'API');
    const documented = (CHECK_TYPES as readonly string[]).includes(own);
    if (!documented) verdict.note('check-type', `CHECK_ID names a check of type ${own}, which the document does not list: every documented type is another type for it`);
    const typeCell = (t: string, mayRefuse: boolean): Cell => ({
      title: `checkType ${t} (frequency 10, offset 1): must be ${mayRefuse ? 'accepted and read back, or refused with a 4xx that changes nothing' : `accepted (the check's own type)`}`,
      checkId: id,
      body: { [P.name]: probeName(`CU-6 ${t}`), [P.checkType]: t, [P.frequency]: 10, [P.frequencyOffset]: 1 },
      valid: frequencyOffsetRuling(t, 10, 1).accepted,
      clause: 'CU-6',
      mayRefuse,
    });
    const fx = { api, contract, verdict, target, spec, validator };
    const others = CHECK_TYPES.filter((x) => x !== own);
    const unknownCell = propertyCell(id, 'CU-6', P.checkType, UNKNOWN.checkType, UNKNOWN.checkType, false);
    budget([unknownCell, ...(documented ? [typeCell(own, false)] : []), ...others.map((t) => typeCell(t, true))]);
    await runCell(fx, s, unknownCell);
    if (documented) await runCell(fx, s, typeCell(own, false));
    const refused: string[] = [];
    const taken: string[] = [];
    for (const t of others) {
      const status = await runCell(fx, s, typeCell(t, true));
      if (status !== undefined && status >= 400 && status < 500) refused.push(`${t} (${status})`);
      else if (status !== undefined && status >= 200 && status < 300) taken.push(t);
    }
    verdict.note('check-types-refused', refused.length
      ? `the target refused to turn the ${own} check into ${refused.join(', ')}; it took ${taken.join(', ') || 'no other type'}`
      : `the target took every other documented type (${taken.join(', ') || 'none'})`);
  });

  // --- CU-8 -----------------------------------------------------------------------------------------

  test('an unknown check id is not found, never updated', { annotation: clauses('CU-8', 'ERR-1', 'ERR-3', 'ERR-4') }, async ({ contract, verdict, target }) => {
    test.skip(!target.updateOp || !target.updatePath, 'the target\'s spec has no check update whose body has frequencyOffset (see SPEC-5): nothing to send');
    const vocabulary = vocabularyOf(target);
    const missing = missingRoles(vocabulary, ['name']);
    if (missing.length) verdict.note('spec-finding', missingReason(missing));
    test.skip(missing.length > 0, missingReason(missing));
    // A replace (required properties) gets a whole, valid body, so that only the id can be wrong: the
    // check's state as last read, else the snapshot's.
    const known = session && ([...session.current.values()][0] ?? Object.values(session.snapshot.checks)[0]);
    const base = requiresFullBody(target) && session && known ? restoreBody(known, session.writable) : {};
    const query = (() => {
      const q = autoSubscribeParam(target);
      return q ? { [q]: 'false' } : undefined;
    })();
    for (const [what, id] of [['a well-formed id nobody created', randomUUID()], ['a malformed id', 'not-a-check-id']]) {
      const from = verdict.failures.length;
      await test
        .step(`${what}: must be rejected (CU-8)`, async () => {
          const ex = await contract.send(target.updateOp, target.updateMethod, fillPath(target.updatePath!, id), 'invalid', 'CU-8', { body: { ...base, [vocabulary.name!]: probeName('CU-8') }, query });
          checkErrorResponse(verdict, ex);
          closeCell(verdict, from, what);
        })
        .catch((e) => {
          if (!(e instanceof CellFailed)) throw e;
        });
    }
  });

  // --- CU-9: last -----------------------------------------------------------------------------------

  test('after the run the checks are as they were before it', { annotation: clauses('CU-9') }, async ({ api, contract, verdict, target, config }) => {
    test.skip(!config.checkId && !config.browserCheckId, 'CHECK_ID and BROWSER_CHECK_ID are not set: no check was changed, so there is nothing to put back');
    const { s } = requireCheck(config, target, config.checkId ? 'api' : 'browser');
    // The restore itself is the suite's own doing, not the target's contract: only its outcome, read
    // back through the spec'd GET, is judged.
    const write: Send = (method, path, options) => api.call(method, path, options);
    const read: Send = (method, path, options) => contract.send(target.readCheckOp, method, path, 'valid', 'CU-9', options);
    // What putting back an earlier run's snapshot did (that run's checks are judged by this restore).
    for (const n of s.snapshot.recovery ?? []) verdict.note('restored', n);
    const results: RestoreResult[] = [];
    for (const [id, state] of Object.entries(s.snapshot.checks)) {
      const r = await restoreCheck(read, write, s.routes, id, state, s.writable, s.query);
      results.push(r);
      verdict.note('restored', describeRestore(r));
      const problem = r.error ?? (r.remaining.length ? `still different: ${r.remaining.join(', ')}` : '');
      verdict.check('CU-9', restored(r), `check ${id} is not as it was before the run: ${problem}`, r.steps.join('; ') || 'no restore sent', 'every writable property equal to the snapshot taken before the first update');
    }
    if (results.every(restored)) removeSnapshot(s.file);
  });
});
