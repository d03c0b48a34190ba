/**
 * The value rules of the check update body, each once: the clause, the property (by role), the checks it
 * applies to, its domain (the valid values, from the document's facts) and its oracle (the document's
 * verdict on any value whatever, as a Ruling: where the document is silent the target's spec decides, or
 * either answer passes). The cells of a run (near-miss-cases.ts) and the self-test's faults are made
 * from these: the near-miss operators applied to the domain, each result judged by the oracle.
 */
import fc from 'fast-check';
import type { ClauseId } from '../document/clauses';
import { CHECK_TYPES, DESCRIPTION_MAX, LOCATIONS, RUNTIME_VERSIONS } from '../document/facts';
import type { CheckKind, PlaceContext, Ruling } from './table';
import type { BodyRole } from './vocabulary';

export interface ValueRule {
  clause: ClauseId;
  role: BodyRole;
  places: readonly CheckKind[];
  /** The valid values the operators start from. */
  domain: (c: PlaceContext) => readonly unknown[];
  oracle: (value: unknown, c: PlaceContext) => Ruling;
  /** Values beyond the operators, drawn with the run's seed. */
  arbitrary: (c: PlaceContext) => fc.Arbitrary<unknown>;
}

const BOTH: readonly CheckKind[] = ['api', 'browser'];
const listed = (list: readonly string[], v: unknown) => typeof v === 'string' && list.includes(v);
/** The largest integer every JSON parser reads exactly and a 32-bit column holds: above it the document says nothing. */
const INT32_MAX = 2 ** 31 - 1;

/** Characters as a person counts them (grapheme clusters), and as code points. */
// One segmenter for the run: making one costs more than segmenting a 500-character description.
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (s: string) => [...segmenter.segment(s)].length;
const codePoints = (s: string) => [...s].length;

/**
 * "Maximum 500 characters": where code points and user-perceived characters fall on the same side of
 * the bound, that side decides; where they do not (a decomposed é is two code points, one character),
 * the document does not say which it means.
 */
function descriptionRuling(v: unknown): Ruling {
  if (v === null) return 'valid-where-nullable';
  if (typeof v !== 'string') return 'invalid-unless-admitted';
  const [a, b] = [codePoints(v) <= DESCRIPTION_MAX, graphemes(v) <= DESCRIPTION_MAX];
  return a && b ? 'valid' : !a && !b ? 'invalid' : 'either';
}

export const VALUE_RULES: readonly ValueRule[] = [
  {
    clause: 'CU-2',
    role: 'description',
    places: BOTH,
    domain: () => ['d'.repeat(DESCRIPTION_MAX), 'é'.repeat(DESCRIPTION_MAX), 'Contract suite probe'],
    oracle: descriptionRuling,
    // Printable characters of one, two and four UTF-8 bytes: what a description holds, nothing a store may refuse for itself (NUL).
    arbitrary: () => fc.string({ unit: fc.constantFrom('d', 'é', 'ß', '中', '😀'), minLength: DESCRIPTION_MAX - 2, maxLength: DESCRIPTION_MAX + 2 }),
  },
  {
    clause: 'CU-3',
    role: 'groupOrder',
    places: BOTH,
    domain: () => [0, 5],
    oracle: (v) =>
      v === null || (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= INT32_MAX)
        ? 'valid'
        : typeof v === 'number' && Number.isInteger(v) && v > INT32_MAX
          ? 'either'
          : 'invalid',
    arbitrary: () =>
      fc.oneof(
        fc.integer({ min: -100, max: 100 }),
        fc.integer({ min: -100, max: 100 }).map((n) => n / 4),
      ),
  },
  {
    clause: 'CU-4',
    role: 'locations',
    places: BOTH,
    domain: () => LOCATIONS.map((l) => [l]),
    oracle: (v) => {
      if (v === null) return 'invalid-unless-nullable';
      if (!Array.isArray(v) || v.length === 0 || !v.every((l) => listed(LOCATIONS, l))) return 'invalid';
      // The document does not say whether a location may be named twice.
      return new Set(v).size === v.length ? 'valid' : 'either';
    },
    arbitrary: () =>
      fc.array(
        fc.oneof(
          fc.constantFrom(...LOCATIONS),
          fc.constantFrom(...LOCATIONS).map((l) => l.replace(/\d$/, (d) => String(Number(d) + 3))),
        ),
        { minLength: 1, maxLength: 3 },
      ),
  },
  {
    clause: 'CU-5',
    role: 'runtimeId',
    places: BOTH,
    domain: () => RUNTIME_VERSIONS,
    oracle: (v) => (v === null ? 'invalid-unless-nullable' : listed(RUNTIME_VERSIONS, v) ? 'valid' : 'invalid'),
    arbitrary: () => fc.tuple(fc.integer({ min: 2021, max: 2027 }), fc.integer({ min: 0, max: 13 })).map(([y, m]) => `${y}.${String(m).padStart(2, '0')}`),
  },
  {
    // Another documented type may be refused (the operation "updates an API check or a browser check").
    clause: 'CU-6',
    role: 'checkType',
    places: BOTH,
    domain: (c) => [c.ownType],
    oracle: (v, c) => (v === c.ownType ? 'valid' : listed(CHECK_TYPES, v) ? 'either' : 'invalid'),
    // A documented type with one character left out: never a documented type (another one would be 'either').
    arbitrary: () => fc.tuple(fc.constantFrom(...CHECK_TYPES), fc.nat()).map(([t, n]) => t.slice(0, n % t.length) + t.slice((n % t.length) + 1)),
  },
];

export const valueRuleOf = (clause: ClauseId) => VALUE_RULES.find((r) => r.clause === clause);
