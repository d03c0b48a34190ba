/**
 * The check update's rules as data, written from the API document: per clause, the body property (by
 * role; the target's name for it comes from vocabulary.ts), the checks it applies to and the classes of
 * value, each with the document's verdict. cells.ts turns these rows into the cells a test sends, and
 * selftest/faults/generated/check-update.ts turns the same rows into faults of the reference service,
 * so every row is proven able to fail both ways (too loose and too strict).
 *
 * Names, as failures and the contract matrix show them:
 *   place       'check-update' for every update (the route by role); the read-back is 'check-read'.
 *   valueClass  `<check>:<role>:<class>`. check: 'api' (the check CHECK_ID names) or 'browser'
 *               (BROWSER_CHECK_ID); role: the body property by meaning ('description', 'frequencyOffset',
 *               …), or 'combo' for a value judged against the stored state, 'round' for a body of several
 *               valid values, 'given' for a state the suite sets up, 'query' for the query parameter;
 *               class: the kind of value, e.g. 'api:locations:upper-case', 'browser:description:over-max-astral',
 *               'api:frequencyOffset:f10-max+1', 'api:combo:frequency-alone-to-f120-offset-out-of-range'.
 *               Outside the table: 'unknown-id:well-formed' / 'unknown-id:malformed' (CU-8), '<check>:restore' (CU-9).
 *   cell        the class with the value shown, for people ("locations upper-case [\"US-EAST-1\"]").
 *
 * Verdicts: 'valid' and 'invalid' are the document's. Where the document is silent, the target's spec
 * decides (see Ruling); 'either' means the target may take the value or refuse it without a change.
 * frequencyOffset rows carry no verdict: the one oracle (frequency-offset.ts) judges each on the check
 * as it is after the update (type, frequency and offset, sent or stored).
 */
import type { ClauseId } from '../document/clauses';
import { DESCRIPTION_MAX, LOCATIONS, RUNTIME_VERSIONS } from '../document/facts';
import { maxOffset } from './frequency-offset';
import type { BodyRole } from './vocabulary';

export type CheckKind = 'api' | 'browser';
export const CHECK_KINDS: readonly CheckKind[] = ['api', 'browser'];

/** The type each configured check is expected to have (the check's own type, as read, decides). */
export const EXPECTED_TYPE: Readonly<Record<CheckKind, string>> = { api: 'API', browser: 'BROWSER' };

/**
 * valid / invalid: the document says so.
 * either: the document allows the value but lets the target refuse it (another check type: the operation
 *   "updates an API check or a browser check"); refused, nothing may change.
 * valid-where-nullable: null, for a property the document gives no null for (description): accepted where
 *   the target's spec declares it nullable (CU-2); elsewhere either answer is fine.
 * invalid-unless-nullable: null, where the document lists the allowed values (locations, runtimeId): rejected,
 *   unless the target's spec declares null, then either answer is fine.
 * invalid-unless-admitted: a JSON type the document does not name for a property whose rule counts
 *   characters (a number as description): rejected where the target's spec does not admit that type,
 *   else either answer is fine.
 */
export type Ruling = 'valid' | 'invalid' | 'either' | 'valid-where-nullable' | 'invalid-unless-nullable' | 'invalid-unless-admitted';

/** What a value may depend on: the check's own type as read. */
export interface PlaceContext {
  check: CheckKind;
  ownType: string;
}

export interface ValueClass {
  name: string;
  value: unknown | ((c: PlaceContext) => unknown);
  ruling: Ruling;
  /** Values a read may show instead, meaning the same (an empty description read back as null). */
  readsBackAs?: unknown[];
  /** Only on these checks (default: the rule's). */
  places?: readonly CheckKind[];
}

export interface PropertyRule {
  clause: ClauseId;
  role: BodyRole;
  places: readonly CheckKind[];
  classes: ValueClass[];
  /**
   * Each cell presumes the stored frequency is not 0, so that a check type is judged alone (frequency 0
   * would make every type but API wrong, FO-5).
   */
  neutralFrequency?: boolean;
}

const BOTH: readonly CheckKind[] = ['api', 'browser'];
const text = (c: string, n: number) => c.repeat(n);
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();

/**
 * A location the document does not know, and look-alikes: same shape, inside the apparent range, not in
 * the list (they are the unknown values of their property).
 */
export const UNKNOWN = { location: 'mars-north-1' } as const;
export const LOOK_ALIKES = {
  locations: ['us-east-3', 'eu-west-4', 'ap-south-2'],
  runtimeId: ['2024.10', '2025.09', '2026.01', '2024.9'],
  checkType: ['APIS', 'BROWSER_CHECK', 'WEB'],
} as const;

/** The name a valid body sets (CU-1). */
export const PROBE_NAME = 'Contract suite probe (CU-1)';

// ---------------------------------------------------------------------------------------------------
// CU-2..CU-6: one rule per body property. Valid classes first, in the order the rounds take them (the
// last valid value of a property is the one a read shows: null goes last, so a target that ignores null
// is caught by the read as well as by the response).

export const PROPERTY_RULES: PropertyRule[] = [
  {
    clause: 'CU-1',
    role: 'name',
    places: BOTH,
    classes: [{ name: 'new', value: PROBE_NAME, ruling: 'valid' }],
  },
  {
    // "maximum 500 characters": characters, not bytes or UTF-16 units; 😀 is one character.
    clause: 'CU-2',
    role: 'description',
    places: BOTH,
    classes: [
      { name: 'max-ascii', value: text('d', DESCRIPTION_MAX), ruling: 'valid' },
      { name: 'max-multibyte', value: text('é', DESCRIPTION_MAX), ruling: 'valid' },
      { name: 'max-astral', value: text('😀', DESCRIPTION_MAX), ruling: 'valid' },
      { name: 'numeric-string', value: '500', ruling: 'valid' },
      { name: 'boolean-string', value: 'true', ruling: 'valid' },
      { name: 'empty', value: '', ruling: 'valid', readsBackAs: [null] },
      { name: 'null', value: null, ruling: 'valid-where-nullable' },
      { name: 'over-max-ascii', value: text('d', DESCRIPTION_MAX + 1), ruling: 'invalid' },
      { name: 'over-max-multibyte', value: text('é', DESCRIPTION_MAX + 1), ruling: 'invalid' },
      { name: 'over-max-astral', value: text('😀', DESCRIPTION_MAX + 1), ruling: 'invalid' },
      { name: 'number', value: 500, ruling: 'invalid-unless-admitted' },
      { name: 'boolean', value: true, ruling: 'invalid-unless-admitted' },
      { name: 'array', value: ['d'], ruling: 'invalid-unless-admitted' },
      { name: 'object', value: { text: 'd' }, ruling: 'invalid-unless-admitted' },
    ],
  },
  {
    // "Integer >= 0; may be null".
    clause: 'CU-3',
    role: 'groupOrder',
    places: BOTH,
    classes: [
      { name: 'zero', value: 0, ruling: 'valid' },
      { name: 'positive', value: 5, ruling: 'valid' },
      { name: 'null', value: null, ruling: 'valid' },
      { name: 'negative', value: -1, ruling: 'invalid' },
      { name: 'float', value: 1.5, ruling: 'invalid' },
      { name: 'numeric-string', value: '1', ruling: 'invalid' },
      { name: 'boolean-string', value: 'true', ruling: 'invalid' },
      { name: 'boolean', value: true, ruling: 'invalid' },
      { name: 'array', value: [1], ruling: 'invalid' },
      { name: 'object', value: { value: 1 }, ruling: 'invalid' },
    ],
  },
  {
    // "Array of one or more data center locations", from the list of 22.
    clause: 'CU-4',
    role: 'locations',
    places: BOTH,
    classes: [
      { name: 'one', value: [LOCATIONS[0]], ruling: 'valid' },
      { name: 'all', value: [...LOCATIONS], ruling: 'valid' },
      { name: 'empty', value: [], ruling: 'invalid' },
      { name: 'with-unknown', value: [LOCATIONS[0], UNKNOWN.location], ruling: 'invalid' },
      ...LOOK_ALIKES.locations.map((l): ValueClass => ({ name: `look-alike-${l}`, value: [l], ruling: 'invalid' })),
      { name: 'upper-case', value: [LOCATIONS[0].toUpperCase()], ruling: 'invalid' },
      { name: 'mixed-case', value: [LOCATIONS[0].split('-').map(upperFirst).join('-')], ruling: 'invalid' },
      { name: 'string', value: LOCATIONS[0], ruling: 'invalid' },
      { name: 'number-item', value: [1], ruling: 'invalid' },
      { name: 'object', value: { region: LOCATIONS[0] }, ruling: 'invalid' },
      { name: 'null', value: null, ruling: 'invalid-unless-nullable' },
    ],
  },
  {
    // "Allowed values: 2026.04, …": runtime names are strings of the form YYYY.MM; case does not apply.
    clause: 'CU-5',
    role: 'runtimeId',
    places: BOTH,
    classes: [
      ...RUNTIME_VERSIONS.map((v): ValueClass => ({ name: `listed-${v}`, value: v, ruling: 'valid' })),
      ...LOOK_ALIKES.runtimeId.map((v): ValueClass => ({ name: `look-alike-${v}`, value: v, ruling: 'invalid' })),
      { name: 'number', value: 2024.09, ruling: 'invalid' },
      { name: 'empty', value: '', ruling: 'invalid' },
      { name: 'array', value: [RUNTIME_VERSIONS[2]], ruling: 'invalid' },
      { name: 'object', value: { id: RUNTIME_VERSIONS[2] }, ruling: 'invalid' },
      { name: 'null', value: null, ruling: 'invalid-unless-nullable' },
    ],
  },
  {
    // "One of: AGENTIC, API, …". The check's own type is valid. Another documented type is allowed but
    // may be refused: the operation "updates an API check or a browser check", with one replacement per
    // type. Each check tries the other of those two (a 5xx, or a refusal that changes something, fails);
    // it comes last, and the next test that needs the check's own type sets it again. (The other eleven
    // types would add eleven requests that can fail only the same ways.)
    clause: 'CU-6',
    role: 'checkType',
    places: BOTH,
    neutralFrequency: true,
    classes: [
      { name: 'own', value: (c: PlaceContext) => c.ownType, ruling: 'valid' },
      { name: 'lower-case', value: (c: PlaceContext) => c.ownType.toLowerCase(), ruling: 'invalid' },
      { name: 'mixed-case', value: (c: PlaceContext) => upperFirst(c.ownType), ruling: 'invalid' },
      ...LOOK_ALIKES.checkType.map((t): ValueClass => ({ name: `look-alike-${t}`, value: t, ruling: 'invalid' })),
      { name: 'empty', value: '', ruling: 'invalid' },
      { name: 'number', value: 1, ruling: 'invalid' },
      { name: 'null', value: null, ruling: 'invalid' },
      { name: 'array', value: (c: PlaceContext) => [c.ownType], ruling: 'invalid' },
      { name: 'object', value: (c: PlaceContext) => ({ type: c.ownType }), ruling: 'invalid' },
      { name: 'other-BROWSER', value: 'BROWSER', ruling: 'either', places: ['api'] },
      { name: 'other-API', value: 'API', ruling: 'either', places: ['browser'] },
    ],
  },
];

// ---------------------------------------------------------------------------------------------------
// FO: frequencyOffset, judged by the oracle on the check after the update.

/** Offsets tried at each frequency: 0, 1, the largest allowed and one more; at 0, the three and their neighbours. */
export function boundaryOffsets(frequency: number, check: CheckKind): Array<{ name: string; offset: number }> {
  if (frequency === 0) {
    // On the browser check every offset is wrong at frequency 0 (FO-5): the three the API check may have.
    const offsets = check === 'browser' ? [10, 20, 30] : [0, 1, 9, 10, 11, 19, 20, 21, 29, 30, 31];
    return offsets.map((o) => ({ name: `f0-${o}`, offset: o }));
  }
  const max = maxOffset(frequency);
  return [
    { name: `f${frequency}-0`, offset: 0 },
    { name: `f${frequency}-1`, offset: 1 },
    { name: `f${frequency}-max`, offset: max },
    { name: `f${frequency}-max+1`, offset: max + 1 },
  ];
}

/**
 * The frequencies whose boundaries are tried. The API check: every frequency of the target's list. The
 * browser check: the edges of each rule (the smallest and largest frequency of 1..60 and of above 60,
 * and 0): the offset arithmetic is the same rule whatever the type, and the edges show a browser path
 * that applies it otherwise, at a quarter of the requests.
 */
export function frequenciesFor(check: CheckKind, listed: readonly number[]): number[] {
  if (check === 'api') return [...listed];
  const low = listed.filter((f) => f > 0 && f <= 60);
  const high = listed.filter((f) => f > 60);
  const edges = [listed.includes(0) ? 0 : undefined, low[0], low[low.length - 1], high[0], high[high.length - 1]];
  return [...new Set(edges.filter((f): f is number => f !== undefined))].sort((a, b) => a - b);
}

/** Offsets that are not an integer >= 1 (FO-4), sent with a frequency in 1..60. */
export const NOT_AN_OFFSET: Array<{ name: string; offset: unknown }> = [
  { name: 'negative', offset: -1 },
  { name: 'float', offset: 1.5 },
  { name: 'numeric-string', offset: '5' },
  { name: 'boolean-string', offset: 'true' },
  { name: 'boolean', offset: true },
  { name: 'null', offset: null },
  { name: 'array', offset: [5] },
  { name: 'object', offset: { value: 5 } },
];

/** The same, at frequency 0 (API check) and above 60: a careless parser there is a path of its own. */
export const NOT_AN_OFFSET_AT_ZERO = [
  { name: 'float', offset: 10.5 },
  { name: 'numeric-string', offset: '10' },
];
export const NOT_AN_OFFSET_ABOVE_60 = [{ name: 'float', offset: 1.5 }];

/** A stored state by role: what a combination presumes before its body is sent. */
export interface Coupled {
  checkType?: string;
  frequency?: number;
  frequencyOffset?: unknown;
}

/**
 * Combinations the document ties together: a body that sends frequency, offset or type alone is judged
 * with the stored values of the others. `low` is a frequency of 1..60 (10 where listed), `high` one
 * above 60 (120 where listed), named in the class as f10, f120 ({low}, {high} in the names below); a
 * combination whose frequencies the target does not list is left out.
 */
export interface Combination {
  name: string;
  places: readonly CheckKind[];
  given: (low: number, high: number) => Coupled;
  body: (low: number, high: number) => Coupled;
  /** Frequencies the combination needs listed. */
  needs: Array<'zero' | 'low' | 'high'>;
}

export const COMBINATIONS: Combination[] = [
  // In an order where most cells find the state the one before left (few set-ups).
  {
    name: 'offset-alone-at-{low}-max+1',
    places: BOTH,
    needs: ['low'],
    given: (l) => ({ frequency: l, frequencyOffset: 1 }),
    body: (l) => ({ frequencyOffset: maxOffset(l) + 1 }),
  },
  {
    name: 'offset-alone-at-{low}-max',
    places: BOTH,
    needs: ['low'],
    given: (l) => ({ frequency: l, frequencyOffset: 1 }),
    body: (l) => ({ frequencyOffset: maxOffset(l) }),
  },
  // The stored offset is the low frequency's largest: too large for the high one.
  {
    name: 'frequency-alone-to-{high}-offset-out-of-range',
    places: BOTH,
    needs: ['low', 'high'],
    given: (l) => ({ frequency: l, frequencyOffset: maxOffset(l) }),
    body: (_, h) => ({ frequency: h }),
  },
  {
    name: 'offset-alone-at-{high}-max+1',
    places: BOTH,
    needs: ['high'],
    given: (_, h) => ({ frequency: h, frequencyOffset: 1 }),
    body: (_, h) => ({ frequencyOffset: maxOffset(h) + 1 }),
  },
  {
    name: 'offset-alone-at-{high}-max',
    places: BOTH,
    needs: ['high'],
    given: (_, h) => ({ frequency: h, frequencyOffset: 1 }),
    body: (_, h) => ({ frequencyOffset: maxOffset(h) }),
  },
  // The stored offset (the high frequency's largest) is none of 10, 20, 30.
  {
    name: 'frequency-alone-to-f0-offset-too-small',
    places: ['api'],
    needs: ['zero', 'high'],
    given: (_, h) => ({ frequency: h, frequencyOffset: maxOffset(h) }),
    body: () => ({ frequency: 0 }),
  },
  {
    name: 'frequency-alone-to-{low}-offset-in-range',
    places: BOTH,
    needs: ['low', 'high'],
    given: (_, h) => ({ frequency: h, frequencyOffset: maxOffset(h) }),
    body: (l) => ({ frequency: l }),
  },
  // FO-5 on the browser check: frequency 0 sent alone, the stored offset one an API check could have.
  {
    name: 'frequency-alone-to-f0',
    places: ['browser'],
    needs: ['zero', 'low'],
    given: (l) => ({ frequency: l, frequencyOffset: 10 }),
    body: () => ({ frequency: 0 }),
  },
  {
    name: 'frequency-alone-to-f0-offset-10',
    places: ['api'],
    needs: ['zero', 'low'],
    given: (l) => ({ frequency: l, frequencyOffset: 10 }),
    body: () => ({ frequency: 0 }),
  },
  {
    name: 'offset-alone-at-f0-other',
    places: ['api'],
    needs: ['zero'],
    given: () => ({ frequency: 0, frequencyOffset: 10 }),
    body: () => ({ frequencyOffset: 15 }),
  },
  // FO-5 on the API check: turned into a browser check while at frequency 0, alone or in one body.
  {
    name: 'type-alone-to-BROWSER-at-f0',
    places: ['api'],
    needs: ['zero'],
    given: () => ({ frequency: 0, frequencyOffset: 10 }),
    body: () => ({ checkType: 'BROWSER' }),
  },
  {
    name: 'offset-alone-at-f0-allowed',
    places: ['api'],
    needs: ['zero'],
    given: () => ({ frequency: 0, frequencyOffset: 10 }),
    body: () => ({ frequencyOffset: 20 }),
  },
  {
    name: 'to-BROWSER-at-f0-in-one-body',
    places: ['api'],
    needs: ['zero', 'low'],
    given: (l) => ({ frequency: l, frequencyOffset: 1 }),
    body: () => ({ checkType: 'BROWSER', frequency: 0, frequencyOffset: 10 }),
  },
];

// ---------------------------------------------------------------------------------------------------
// The tests of the family, in the order they run: which rows each sends, on which checks.

export type UpdateTestKey = 'valid' | 'query' | 'CU-2' | 'CU-3' | 'CU-4' | 'CU-5' | 'CU-6' | 'FO-zero' | 'FO-low' | 'FO-high' | 'FO-4' | 'FO-combined';

export interface UpdateTest {
  key: UpdateTestKey;
  title: string;
  clauses: ClauseId[];
  places: readonly CheckKind[];
}

export const UPDATE_TESTS: UpdateTest[] = [
  {
    key: 'valid',
    title: 'every valid value of every rule is accepted and reads back (one value per property in each body)',
    clauses: ['CU-1', 'CU-2', 'CU-3', 'CU-4', 'CU-5', 'CU-6', 'FO-1', 'FO-2', 'FO-3'],
    places: BOTH,
  },
  { key: 'query', title: 'the auto-subscribe query parameter is accepted as true and as false', clauses: ['CU-1'], places: ['api'] },
  {
    key: 'CU-2',
    title: 'description: over 500 characters (ASCII, multi-byte, astral) and other types rejected',
    clauses: ['CU-2', 'CU-7', 'CU-1'],
    places: BOTH,
  },
  { key: 'CU-3', title: 'groupOrder: negative, fractional and other types rejected', clauses: ['CU-3', 'CU-7'], places: BOTH },
  { key: 'CU-4', title: 'locations: none, unknown ones, look-alikes, other case and other types rejected', clauses: ['CU-4', 'CU-7'], places: BOTH },
  { key: 'CU-5', title: 'runtimeId: look-alikes of the listed versions and other types rejected', clauses: ['CU-5', 'CU-7'], places: BOTH },
  {
    key: 'CU-6',
    title: 'checkType: other case, look-alikes and other types rejected; the other type the operation updates taken, or refused without a change',
    clauses: ['CU-6', 'CU-7', 'CU-1'],
    places: BOTH,
  },
  {
    key: 'FO-zero',
    title: 'frequency 0: an offset other than 10, 20, 30 rejected; on a browser check every offset rejected',
    clauses: ['FO-1', 'FO-4', 'FO-5', 'CU-7'],
    places: BOTH,
  },
  { key: 'FO-low', title: 'frequencies 1 to 60: offsets 0 and floor(f * 10) + 1 rejected', clauses: ['FO-2', 'FO-4', 'CU-7'], places: BOTH },
  { key: 'FO-high', title: 'frequencies above 60: offsets 0 and ceil(f / 60) + 1 rejected', clauses: ['FO-3', 'FO-4', 'CU-7'], places: BOTH },
  { key: 'FO-4', title: 'frequencyOffset that is not an integer >= 1 rejected', clauses: ['FO-4', 'CU-7'], places: BOTH },
  {
    key: 'FO-combined',
    title: 'frequency, offset and type sent alone are judged with the stored values',
    clauses: ['FO-1', 'FO-2', 'FO-3', 'FO-5', 'CU-7', 'CU-1'],
    places: BOTH,
  },
];
