/**
 * The value rules of the check update body (CU-1..CU-6), each once: its property (by role), the values the
 * document suggests, values generated from its domain with the run's seed, and its oracle, which judges
 * every one of them; cells.ts makes the cells a test sends from them, the self-test its faults.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { ClauseId } from '../document/clauses';
import { nearMissesAt, seededValues } from '../document/case-choice';
import { DEFAULT_CASE_SEED } from '../document/case-seed';
import { CHECK_TYPES, DESCRIPTION_MAX, LOCATIONS, RUNTIME_VERSIONS } from '../document/facts';
import { anyCharacter } from '../document/any-character';
import type { CheckKind } from './table';
import type { BodyRole, SpecFacts, UpdateVocabulary } from './vocabulary';

/**
 * valid / invalid: the document says so. either: the target may take it or refuse it without a change
 * (another check type; a description of DESCRIPTION_MAX code points and one character fewer). Where the document is
 * silent the target's spec decides: valid-where-nullable (null as description), invalid-unless-nullable
 * (null where the document lists the values), invalid-unless-admitted (a number as description).
 */
export type Ruling = 'valid' | 'invalid' | 'either' | 'valid-where-nullable' | 'invalid-unless-nullable' | 'invalid-unless-admitted';

/** One check of one target, as the cells of a test are made for it: its own type as read, the run's seed, the target's spec. */
export interface CellContext {
  check: CheckKind;
  ownType: string;
  seed?: number;
  /** The frequencies of the target (its spec's list, else the known set). */
  frequencies: readonly number[];
  names: UpdateVocabulary;
  spec: SpecFacts;
  /** The boolean query parameter of the update, if the spec declares one. */
  queryParam?: string;
  /** The other check is updated in this run too: the listed values a check may refuse are shared between the two (cells.ts). */
  otherCheck?: boolean;
}

/** The seed a place's values are drawn with: the run's, else the default one. */
export const seedOf = (c: CellContext): number => c.seed ?? DEFAULT_CASE_SEED;

/** A value with the name of its class (the last part of the value class). */
export interface NamedValue {
  name: string;
  value: unknown | ((c: CellContext) => unknown);
  /** Values a read may show instead, meaning the same (an empty description read back as null). */
  readsBackAs?: unknown[];
  /** Only on these checks (default: both). */
  places?: readonly CheckKind[];
}

export interface ValueRule {
  clause: ClauseId;
  role: BodyRole;
  /** Valid values first, in the order the rounds take them (null last: a read then shows whether it was stored). */
  listed: NamedValue[];
  oracle: (value: unknown, c: CellContext) => Ruling;
  /** The valid values the operators start from, and values beyond the operators drawn with the run's seed. */
  generated?: { domain: (c: CellContext) => readonly unknown[]; arbitrary: (c: CellContext) => fc.Arbitrary<unknown> };
  /** Each cell presumes a frequency above 0, so that a check type is judged alone (at 0 every type but API is wrong, FO-5). */
  neutralFrequency?: boolean;
  /** The rule's own test (its valid values are in the rounds): what it rejects, and the clauses it declares beside the rule's and CU-7. */
  test?: { rejects: string; alsoDeclares?: ClauseId[] };
}

const BOTH: readonly CheckKind[] = ['api', 'browser'];
const isListed = (list: readonly string[], v: unknown) => typeof v === 'string' && list.includes(v);
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
/** The largest integer every JSON parser reads exactly and a 32-bit column holds: above it the document says nothing. */
const INT32_MAX = 2 ** 31 - 1;

/** Characters as a person counts them (grapheme clusters), and as code points. */
// One segmenter for the run: making one costs more than segmenting a description at the bound.
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
// Segmenting is slow: counted only as far as the bound.
const graphemesWithinBound = (s: string) => {
  let n = 0;
  for (const _ of segmenter.segment(s)) if (++n > DESCRIPTION_MAX) return false;
  return true;
};
const codePoints = (s: string) => [...s].length;

/** "Maximum DESCRIPTION_MAX characters": where code points and user-perceived characters fall on different sides of the bound, the document does not say which it means. */
function descriptionRuling(v: unknown): Ruling {
  if (v === null) return 'valid-where-nullable';
  if (typeof v !== 'string') return 'invalid-unless-admitted';
  // A string has no more characters than code points: only a long one needs segmenting.
  if (codePoints(v) <= DESCRIPTION_MAX) return 'valid';
  return graphemesWithinBound(v) ? 'either' : 'invalid';
}

/** A character of one, two and four UTF-8 bytes (one and two UTF-16 units): a description at the bound in each. */
const WIDTHS = Object.entries({ ascii: 'd', multibyte: 'é', astral: '😀' });
/** Text that an HTML, SQL or JSON layer must pass through unchanged (markup, quotes, a backslash, a line break), cut at the bound. */
const SIGNIFICANT = [...'<b class="x">It\'s & \\n</b>\n'.repeat(DESCRIPTION_MAX)].slice(0, DESCRIPTION_MAX).join('');
/** A letter and its combining accent: two characters (code points) that show as one. At the bound in code points, within it either way. */
const COMBINING = 'e\u0301'.repeat(DESCRIPTION_MAX / 2);

/** The characters of the name a valid body sets (CU-1) drawn with the run's seed, so that a stored name must keep any character. */
const NAME_CHARACTERS = 8;
/** The name a valid body sets (CU-1): a label, and characters from the whole of Unicode, one stream per check. */
const probeName = (c: CellContext) =>
  `Contract suite probe ${seededValues(fc.string({ unit: anyCharacter(), minLength: NAME_CHARACTERS, maxLength: NAME_CHARACTERS }), seedOf(c), 200 + BOTH.indexOf(c.check), 1, () => true)[0].value as string}`;

export const VALUE_RULES: readonly ValueRule[] = [
  {
    // "Name of the check": the document says nothing else of it.
    clause: 'CU-1',
    role: 'name',
    listed: [{ name: 'new', value: probeName }],
    oracle: (v) => (typeof v === 'string' && v !== '' ? 'valid' : 'either'),
  },
  {
    // "Maximum DESCRIPTION_MAX characters": characters, not bytes or UTF-16 units; 😀 is one character.
    clause: 'CU-2',
    role: 'description',
    test: { rejects: `over ${DESCRIPTION_MAX} characters (ASCII, multi-byte, astral) and other types rejected`, alsoDeclares: ['CU-1'] },
    listed: [
      ...WIDTHS.map(([width, c]) => ({ name: `max-${width}`, value: c.repeat(DESCRIPTION_MAX) })),
      { name: 'max-significant', value: SIGNIFICANT },
      { name: 'max-combining', value: COMBINING, readsBackAs: [COMBINING.normalize('NFC')] },
      { name: 'numeric-string', value: String(DESCRIPTION_MAX) },
      { name: 'boolean-string', value: 'true' },
      { name: 'empty', value: '', readsBackAs: [null] },
      { name: 'null', value: null },
      ...WIDTHS.map(([width, c]) => ({ name: `over-max-${width}`, value: c.repeat(DESCRIPTION_MAX + 1) })),
      { name: 'number', value: DESCRIPTION_MAX },
      { name: 'boolean', value: true },
      { name: 'array', value: ['d'] },
      { name: 'object', value: { text: 'd' } },
    ],
    oracle: descriptionRuling,
    generated: {
      domain: () => ['d'.repeat(DESCRIPTION_MAX), 'é'.repeat(DESCRIPTION_MAX), 'Contract suite probe'],
      // Printable characters of one, two and four UTF-8 bytes: what a description holds, nothing a store may refuse for itself (NUL).
      arbitrary: () => fc.string({ unit: fc.constantFrom('d', 'é', 'ß', '中', '😀'), minLength: DESCRIPTION_MAX - 2, maxLength: DESCRIPTION_MAX + 2 }),
    },
  },
  {
    // "Integer >= 0; may be null".
    clause: 'CU-3',
    role: 'groupOrder',
    test: { rejects: 'negative, fractional and other types rejected' },
    listed: [
      { name: 'zero', value: 0 },
      { name: 'positive', value: 5 },
      // The largest a 32-bit column holds: an integer >= 0, so it is valid; beyond it the document says nothing (either).
      { name: 'max-int32', value: INT32_MAX },
      { name: 'null', value: null },
      { name: 'negative', value: -1 },
      { name: 'float', value: 1.5 },
      { name: 'numeric-string', value: '1' },
      { name: 'boolean-string', value: 'true' },
      { name: 'boolean', value: true },
      { name: 'array', value: [1] },
      { name: 'object', value: { value: 1 } },
      // A 32-bit store that wraps would read it back as -2147483648.
      { name: 'beyond-int32', value: INT32_MAX + 1 },
    ],
    oracle: (v) => (v === null ? 'valid' : !Number.isInteger(v) || (v as number) < 0 ? 'invalid' : (v as number) <= INT32_MAX ? 'valid' : 'either'),
    generated: {
      domain: () => [0, 5],
      arbitrary: () =>
        fc.oneof(
          fc.integer({ min: -100, max: 100 }),
          fc.integer({ min: -100, max: 100 }).map((n) => n / 4),
        ),
    },
  },
  {
    // "Array of one or more data center locations", from the document's list (LOCATIONS).
    clause: 'CU-4',
    role: 'locations',
    test: { rejects: 'none, unknown ones, look-alikes, other case and other types rejected' },
    listed: [
      { name: 'one', value: [LOCATIONS[0]] },
      { name: 'all', value: [...LOCATIONS] },
      { name: 'empty', value: [] },
      { name: 'with-unknown', value: [LOCATIONS[0], 'mars-north-1'] },
      // Same shape, inside the apparent range, not in the list.
      ...['us-east-3', 'eu-west-4', 'ap-south-2'].map((l) => ({ name: `look-alike-${l}`, value: [l] })),
      { name: 'upper-case', value: [LOCATIONS[0].toUpperCase()] },
      { name: 'mixed-case', value: [LOCATIONS[0].split('-').map(upperFirst).join('-')] },
      { name: 'string', value: LOCATIONS[0] },
      { name: 'number-item', value: [1] },
      { name: 'object', value: { region: LOCATIONS[0] } },
      { name: 'null', value: null },
    ],
    oracle: (v) => {
      if (v === null) return 'invalid-unless-nullable';
      if (!Array.isArray(v) || v.length === 0 || !v.every((l) => isListed(LOCATIONS, l))) return 'invalid';
      // The document does not say whether a location may be named twice.
      return new Set(v).size === v.length ? 'valid' : 'either';
    },
    generated: {
      domain: () => LOCATIONS.map((l) => [l]),
      arbitrary: () =>
        fc.array(
          fc.oneof(
            fc.constantFrom(...LOCATIONS),
            fc.constantFrom(...LOCATIONS).map((l) => l.replace(/\d$/, (d) => String(Number(d) + 3))),
          ),
          { minLength: 1, maxLength: 3 },
        ),
    },
  },
  {
    // "Allowed values: …" (RUNTIME_VERSIONS): runtime names are strings of one form (RUNTIME_NAME_FORM); case does not apply.
    clause: 'CU-5',
    role: 'runtimeId',
    test: { rejects: 'look-alikes of the listed versions and other types rejected' },
    listed: [
      // From the second newest back to the oldest, then forward to the newest: a move is valid both ways,
      // and the run leaves the newest, so the final restore must go back too (CU-9).
      ...[...RUNTIME_VERSIONS.slice(1), RUNTIME_VERSIONS[0]].map((v) => ({ name: `listed-${v}`, value: v })),
      ...['2024.10', '2025.09', '2026.01', '2024.9'].map((v) => ({ name: `look-alike-${v}`, value: v })),
      { name: 'number', value: 2024.09 },
      { name: 'empty', value: '' },
      { name: 'array', value: [RUNTIME_VERSIONS[2]] },
      { name: 'object', value: { id: RUNTIME_VERSIONS[2] } },
      { name: 'null', value: null },
    ],
    oracle: (v) => (v === null ? 'invalid-unless-nullable' : isListed(RUNTIME_VERSIONS, v) ? 'valid' : 'invalid'),
    generated: {
      domain: () => RUNTIME_VERSIONS,
      arbitrary: () => fc.tuple(fc.integer({ min: 2021, max: 2027 }), fc.integer({ min: 0, max: 13 })).map(([y, m]) => `${y}.${String(m).padStart(2, '0')}`),
    },
  },
  {
    // "One of: AGENTIC, API, …". The check's own type is valid. Another documented type is allowed but
    // may be refused: the operation "updates an API check or a browser check", with one replacement per
    // type. Each check tries the other of those two (a 5xx, or a refusal that changes something, fails);
    // it comes last, and the next test that needs the check's own type sets it again. (The other eleven
    // types would add eleven requests that can fail only the same ways.)
    clause: 'CU-6',
    role: 'checkType',
    test: {
      rejects: 'other case, look-alikes and other types rejected; the other type the operation updates taken, or refused without a change',
      alsoDeclares: ['CU-1'],
    },
    neutralFrequency: true,
    listed: [
      { name: 'own', value: (c: CellContext) => c.ownType },
      { name: 'lower-case', value: (c: CellContext) => c.ownType.toLowerCase() },
      { name: 'mixed-case', value: (c: CellContext) => upperFirst(c.ownType) },
      ...['APIS', 'BROWSER_CHECK', 'WEB'].map((t) => ({ name: `look-alike-${t}`, value: t })),
      { name: 'empty', value: '' },
      { name: 'number', value: 1 },
      { name: 'null', value: null },
      { name: 'array', value: (c: CellContext) => [c.ownType] },
      { name: 'object', value: (c: CellContext) => ({ type: c.ownType }) },
      { name: 'other-BROWSER', value: 'BROWSER', places: ['api'] },
      { name: 'other-API', value: 'API', places: ['browser'] },
    ],
    oracle: (v, c) => (v === c.ownType ? 'valid' : isListed(CHECK_TYPES, v) ? 'either' : 'invalid'),
    generated: {
      domain: (c) => [c.ownType],
      // A documented type with one character left out: never a documented type (another one would be 'either').
      arbitrary: () => fc.tuple(fc.constantFrom(...CHECK_TYPES), fc.nat()).map(([t, n]) => t.slice(0, n % t.length) + t.slice((n % t.length) + 1)),
    },
  },
];

export const valueOf = (v: NamedValue, c: CellContext) => (typeof v.value === 'function' ? (v.value as (x: CellContext) => unknown)(c) : v.value);

const among = (values: unknown[], v: unknown) => values.some((x) => isDeepStrictEqual(x, v));
/** Seeded values per rule and check. */
const SEEDED_PER_PLACE = 1;
/** The rules with generated values, whose position seeds them (a rule added without them moves none). */
const GENERATING = VALUE_RULES.filter((r) => r.generated);

// The rounds of valid values and the rule's own test both ask, on each check: draw once.
const generatedOnce = new Map<string, NamedValue[]>();

/** A rule's generated values on one check: near misses of its domain and a few seeded values, none the oracle calls valid or already listed. */
export function generatedValues(rule: ValueRule, c: CellContext): NamedValue[] {
  const { generated } = rule;
  if (!generated) return [];
  const seed = seedOf(c);
  const once = `${rule.clause}:${rule.role}:${c.check}:${c.ownType}:${seed}`;
  const drawn = generatedOnce.get(once);
  if (drawn) return drawn;
  const listed = rule.listed.filter((v) => !v.places || v.places.includes(c.check)).map((v) => valueOf(v, c));
  const ruleIndex = GENERATING.indexOf(rule);
  const keep = (v: unknown) => rule.oracle(v, c) !== 'valid' && !among(listed, v);
  const near = nearMissesAt({ ruleIndex, places: BOTH, place: c.check, domain: generated.domain(c), keep, seed });
  const taken = [...listed, ...near.map((g) => g.value)];
  const stream = ruleIndex * BOTH.length + BOTH.indexOf(c.check);
  const seeded = seededValues(generated.arbitrary(c), seed, stream, SEEDED_PER_PLACE, (v) => !among(taken, v));
  const values = [...near, ...seeded].map((g) => ({ name: g.name, value: g.value }));
  generatedOnce.set(once, values);
  return values;
}
