/**
 * One test of the table on one check as the cells it sends: each body (by the target's names) with its verdict, clause,
 * value class and the state it presumes. Pure, so the same rows give the cells of a run and the faults of the self-test.
 */
import type { ClauseId } from '../document/clauses';
import { show } from '../checks/failure';
import type { HeaderOverrides } from '../http/client';
import { frequencyOffsetRuling } from './frequency-offset';
import { atZeroCases, boundaryCases, combinationCases, lowFrequency, notAnOffsetCases, type Coupled, type OffsetCase } from './offset-rules';
import type { CheckState } from './state';
import { CHECK_KINDS, type CheckKind, type UpdateTestKey } from './table';
import { generatedValues, seedOf, valueOf, VALUE_RULES, type CellContext, type Ruling, type ValueRule } from './value-rules';
import type { BodyRole, SpecFacts } from './vocabulary';

export type Expectation = 'valid' | 'invalid' | 'either';

export interface Cell {
  /** For people: the class with the value shown, and what the target must do. */
  title: string;
  check: CheckKind;
  clause: ClauseId;
  /** `<check>:<role>:<class>` (see table.ts). */
  valueClass: string;
  /** The values under test, by the target's names; carriers (CU-7) are added when it is sent. */
  body: CheckState;
  expect: Expectation;
  /** The stored state (target names) the verdict presumes; the runner sets it up first where it differs. */
  given?: CheckState;
  /** Values a read may show instead of the one sent, meaning the same, by property. */
  readsBackAs?: Record<string, unknown[]>;
  /** A round: several valid cells of different properties in one body. */
  units?: Cell[];
  /** A round sent at the same moment as the round after it (see rounds). */
  together?: true;
  query?: Record<string, string>;
  /** Headers that replace the update's own (bad credentials, rejections.ts). */
  headers?: HeaderOverrides;
  /** The body is sent as JSON with a trailing comma: no JSON at all (rejections.ts). */
  trailingComma?: true;
  /** The body (carriers included) as it goes on the wire, where not as a JSON object: its text and the headers it needs (support/request-lens). */
  wire?: (body: CheckState) => { rawBody: string; headers?: HeaderOverrides };
  /** Properties whose value the target's spec does not list: an echo of them is spec drift. */
  outsideSpecEnum?: string[];
}

/** Whether a value (or an item of an array value) is a string the enumeration does not list. */
const outsideEnum = (value: unknown, listed: unknown[] | undefined) =>
  !!listed && (Array.isArray(value) ? value : [value]).some((v) => typeof v === 'string' && !listed.includes(v));

const jsonType = (v: unknown) => (Array.isArray(v) ? 'array' : typeof v) as 'number' | 'boolean' | 'array' | 'object' | 'string';

/** The verdict of a class on a target: the document's, or the target's spec's where the document is silent. */
export function expectationOf(ruling: Ruling, property: string, value: unknown, spec: SpecFacts): Expectation {
  switch (ruling) {
    case 'valid-where-nullable':
      return spec.nullable(property) ? 'valid' : 'either';
    case 'invalid-unless-nullable':
      return spec.nullable(property) ? 'either' : 'invalid';
    case 'invalid-unless-admitted':
      return value !== null && spec.admits(property, jsonType(value)) ? 'either' : 'invalid';
    default:
      return ruling;
  }
}

const must = (e: Expectation) => (e === 'valid' ? 'must be accepted' : e === 'invalid' ? 'must be rejected' : 'may be taken, or refused without a change');
const shown = (v: unknown) => {
  if (typeof v !== 'string' || v.length <= 24) return show(v, 60);
  const chars = [...v];
  return new Set(chars).size === 1
    ? `${chars.length} × "${chars[0]}"`
    : `${chars.length} characters ${show(`${chars.slice(0, 6).join('')}…${chars.slice(-6).join('')}`, 60)}`;
};

/** A stored state by role, in the target's names (undefined: a role the body lacks). */
function byNames(ctx: CellContext, coupled: Coupled): CheckState | undefined {
  const set = Object.entries(coupled).filter(([, v]) => v !== undefined) as Array<[BodyRole, unknown]>;
  return set.every(([role]) => ctx.names[role]) ? Object.fromEntries(set.map(([role, v]) => [ctx.names[role], v])) : undefined;
}

/**
 * The listed values a check may refuse, pairwise over the two checks rather than their product where both are updated: each goes
 * to one check, every other one to each, which check first by the run's seed. Both checks still meet each rule's refusals; a run
 * with one check gets them all. CASE_SEED=random swaps them.
 */
const onThisCheck = (ctx: CellContext, rule: ValueRule, nth: number) =>
  !ctx.otherCheck || (nth + VALUE_RULES.indexOf(rule) + seedOf(ctx)) % CHECK_KINDS.length === CHECK_KINDS.indexOf(ctx.check);

/** The cells of one value rule on one check, each value judged by the rule's oracle. */
function propertyCells(ctx: CellContext, rule: ValueRule, which: (e: Expectation) => boolean): Cell[] {
  const property = ctx.names[rule.role];
  if (!property) return [];
  // A state whose frequency is not 0, with offset 1 (valid at any such frequency): a type is then judged alone.
  const low = rule.neutralFrequency ? lowFrequency(ctx.frequencies) : undefined;
  const given = low === undefined ? undefined : byNames(ctx, { frequency: low, frequencyOffset: 1 });
  const cells: Cell[] = [];
  const generated = generatedValues(rule, ctx);
  // The generated values first: the last valid value of a property is the one a read shows (null, listed last).
  for (const [i, c] of [...generated, ...rule.listed].entries()) {
    if (c.places && !c.places.includes(ctx.check)) continue;
    const value = valueOf(c, ctx);
    // Another documented type that is the check's own is no other type.
    if (c.name.startsWith('other-') && value === ctx.ownType) continue;
    const documented = expectationOf(rule.oracle(value, ctx), property, value, ctx.spec);
    // A value the document allows that the target's spec does not list (a spec lagging behind): the
    // target may refuse it without a change, or take it (an echo of it is spec drift).
    const outside = documented !== 'invalid' && outsideEnum(value, ctx.spec.enumOf(property));
    const expect: Expectation = outside ? 'either' : documented;
    if (!which(expect)) continue;
    // By its place in the list, so that both checks agree on which is whose.
    if (i >= generated.length && !c.places && expect !== 'valid' && !onThisCheck(ctx, rule, i - generated.length)) continue;
    cells.push({
      title: `${rule.role} ${c.name} ${shown(value)}: ${must(expect)} (${rule.clause})`,
      check: ctx.check,
      clause: rule.clause,
      valueClass: `${ctx.check}:${rule.role}:${c.name}`,
      body: { [property]: value },
      expect,
      ...(given ? { given } : {}),
      ...(c.readsBackAs ? { readsBackAs: { [property]: [value, ...c.readsBackAs] } } : {}),
      ...(outside ? { outsideSpecEnum: [property] } : {}),
    });
  }
  return cells;
}

const listed = (values: Coupled) =>
  Object.entries(values)
    .map(([k, v]) => `${k} ${show(v)}`)
    .join(', ');

/** A frequencyOffset cell: the oracle judges the check as it will be (sent values over the stored ones). */
function offsetCell(ctx: CellContext, { cls, given, body }: OffsetCase): Cell | undefined {
  const after = { checkType: ctx.ownType, ...given, ...body };
  const ruling = frequencyOffsetRuling(after.checkType!, after.frequency!, after.frequencyOffset);
  const bodyNames = byNames(ctx, body);
  // The check's own type is presumed too, where the body has a type property (a test before may have changed it).
  const givenNames = byNames(ctx, { ...(ctx.names.checkType ? { checkType: ctx.ownType } : {}), ...given });
  if (!bodyNames || !givenNames) return undefined;
  const expect: Expectation = ruling.accepted ? 'valid' : 'invalid';
  const sent = listed(body);
  const stored = listed(Object.fromEntries(Object.entries(given).filter(([k]) => !(k in body))));
  return {
    title: `${sent}${stored ? ` (stored ${stored})` : ''} on the ${ctx.ownType} check: ${must(expect)} (${ruling.clause})`,
    check: ctx.check,
    clause: ruling.clause,
    valueClass: `${ctx.check}:${cls}`,
    body: bodyNames,
    expect,
    given: givenNames,
  };
}

const offsetCells = (ctx: CellContext, cases: OffsetCase[], which: (e: Expectation) => boolean) =>
  cases.map((c) => offsetCell(ctx, c)).filter((c): c is Cell => !!c && which(c.expect));

/** The query parameter's cells: a name change, sent with the parameter true and false. */
function queryCells(ctx: CellContext): Cell[] {
  if (!ctx.queryParam || !ctx.names.name) return [];
  return ['true', 'false'].map((v): Cell => ({
    title: `${ctx.queryParam}=${v} with a new name: must be accepted (CU-1)`,
    check: ctx.check,
    clause: 'CU-1',
    valueClass: `${ctx.check}:query:${v}`,
    body: { [ctx.names.name!]: `Contract suite probe (${ctx.queryParam}=${v})` },
    expect: 'valid',
    query: { [ctx.queryParam!]: v },
  }));
}

/** Every valid value of every rule on this check, before they are put into rounds. */
export function validCells(ctx: CellContext): Cell[] {
  const valid = (e: Expectation) => e === 'valid';
  return [...VALUE_RULES.flatMap((r) => propertyCells(ctx, r, valid)), ...offsetCells(ctx, boundaryCases(ctx), valid)];
}

/** Every other round is sent with a charset parameter, which RFC 8259 says compliant recipients ignore. */
const JSON_WITH_CHARSET = 'application/json; charset=utf-8';

const round = (units: Cell[], label: string, together?: true, contentType?: string): Cell => {
  const check = units[0].check;
  const how = together ? ' (sent at once with the next round)' : contentType ? ` (sent as ${contentType})` : '';
  return {
    title: `round ${label}: ${units.map((u) => u.valueClass.slice(check.length + 1)).join(', ')}: must be accepted${how}`,
    check,
    clause: 'CU-1',
    valueClass: `${check}:round:${label}`,
    body: Object.assign({}, ...units.map((u) => u.body)),
    expect: 'valid',
    given: Object.assign({}, ...units.map((u) => u.given ?? {})),
    readsBackAs: Object.assign({}, ...units.map((u) => u.readsBackAs ?? {})),
    units,
    ...(together ? { together } : {}),
    ...(contentType ? { headers: { 'content-type': contentType } } : {}),
  };
};

/**
 * Valid cells put into rounds, the i-th valid value of each property in the i-th (a refused round is sent
 * value by value, to name the one refused); the first round goes as two halves at once, so no update may be lost.
 */
export function rounds(cells: Cell[]): Cell[] {
  const byKey = new Map<string, Cell[]>();
  for (const c of cells) {
    const key = Object.keys(c.body).sort().join('+');
    byKey.set(key, [...(byKey.get(key) ?? []), c]);
  }
  const count = Math.max(0, ...[...byKey.values()].map((l) => l.length));
  const out: Cell[] = [];
  for (let i = 0; i < count; i++) {
    const units = [...byKey.values()].map((l) => l[i]).filter((c): c is Cell => !!c);
    if (units.length === 1) {
      out.push(units[0]);
      continue;
    }
    // The first half free of presumed states, so that the second's set-up can come before both.
    const free = units.filter((u) => !u.given);
    const half = free.length === units.length ? Math.ceil(units.length / 2) : free.length;
    const first = free.slice(0, half);
    const rest = units.filter((u) => !first.includes(u));
    if (i === 0 && first.length && rest.length) out.push(round(first, '1a', true), round(rest, '1b'));
    else out.push(round(units, String(i + 1), undefined, i % 2 === 1 ? JSON_WITH_CHARSET : undefined));
  }
  return out;
}

const notValid = (e: Expectation) => e !== 'valid';
const always = () => true;

/** The cells of one test of the family on one check, in the order they are sent. */
export function cellsFor(key: UpdateTestKey, ctx: CellContext): Cell[] {
  const offsets = (cases: OffsetCase[], which: (e: Expectation) => boolean = notValid) => offsetCells(ctx, cases, which);
  switch (key) {
    case 'valid':
      return rounds(validCells(ctx));
    case 'query':
      return queryCells(ctx);
    case 'FO-zero':
      return offsets([...boundaryCases(ctx, (f) => f === 0), ...atZeroCases(ctx)]);
    case 'FO-low':
      return offsets(boundaryCases(ctx, (f) => f > 0 && f <= 60));
    case 'FO-high':
      return offsets(boundaryCases(ctx, (f) => f > 60));
    case 'FO-4':
      return offsets(notAnOffsetCases(ctx), always);
    case 'FO-combined':
      return offsets(combinationCases(ctx), always);
    default: {
      // A value rule's own test: its valid values are in the rounds; the ones a target may refuse (another type) come last.
      const rule = VALUE_RULES.find((r) => r.clause === key)!;
      return propertyCells(ctx, rule, notValid).sort((a, b) => Number(a.expect === 'either') - Number(b.expect === 'either'));
    }
  }
}

/** The single-value cells behind a list (a round's units, else the cell itself). */
export const unitsOf = (cells: Cell[]) => cells.flatMap((c) => c.units ?? [c]);
