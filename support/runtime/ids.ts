/**
 * RT as data: the runtime ids the suite asks for, by class: the accepted versions are served (RT-1..8),
 * every other id answers 404 with the ERR-1 body (RT-9). Ids are written as sent (encoded already).
 */
import fc from 'fast-check';
import { nearMissesAt, seededValues } from '../document/case-choice';
import { PATH_OPERATORS } from '../document/near-miss';
import { RUNTIME_VERSIONS } from '../document/facts';

type UnknownIdClass = 'never-existed' | 'look-alike' | 'malformed' | 'encoded' | 'long' | 'non-ascii';

export interface UnknownId {
  what: string;
  /** As it goes into the path: encoded already. */
  id: string;
  /** A class of the table, or for a generated id `near-miss:<operator>[:<n>]`, `seeded:<n>`, `inherited-name`. */
  valueClass: string;
}

export const ACCEPTED_CLASS = 'accepted-version';

export const UNKNOWN_IDS: ReadonlyArray<UnknownId & { valueClass: UnknownIdClass }> = [
  { what: 'a version that never existed', id: '1999.01', valueClass: 'never-existed' },
  { what: 'a future version', id: '2031.04', valueClass: 'never-existed' },
  { what: 'a real month of no runtime', id: '2024.10', valueClass: 'never-existed' },
  { what: 'month 13', id: '2024.13', valueClass: 'malformed' },
  { what: 'a version without its leading zero', id: '2024.9', valueClass: 'look-alike' },
  { what: 'the newest version without its leading zero', id: '2026.4', valueClass: 'look-alike' },
  { what: 'a prefix of a real version', id: '2024.0', valueClass: 'look-alike' },
  { what: 'a real version with a suffix', id: '2024.02x', valueClass: 'look-alike' },
  { what: 'a real version with a third part', id: '2024.09.1', valueClass: 'look-alike' },
  { what: 'a dash instead of the dot', id: '2024-02', valueClass: 'look-alike' },
  { what: 'a word', id: 'latest', valueClass: 'malformed' },
  { what: 'an encoded slash', id: '2024.02%2F..', valueClass: 'encoded' },
  { what: 'encoded dots climbing up', id: '%2E%2E%2F%2E%2E%2Fopenapi.json', valueClass: 'encoded' },
  { what: 'a double-encoded slash', id: '..%252F2024.02', valueClass: 'encoded' },
  { what: 'an encoded space after a real version', id: '2024.02%20', valueClass: 'encoded' },
  { what: 'an encoded space before a real version', id: '%202024.09', valueClass: 'encoded' },
  // Well-formed percent-encoding whose bytes are no UTF-8: a decoder that throws must still end in 404.
  { what: 'a real version and a byte that is no UTF-8', id: '2024.02%FF', valueClass: 'encoded' },
  { what: 'dots in an overlong UTF-8 encoding', id: '%C0%AE%C0%AE', valueClass: 'encoded' },
  { what: 'a 2,000-character id', id: 'x'.repeat(2000), valueClass: 'long' },
  { what: 'non-ASCII letters', id: encodeURIComponent('ñandú-2024.02'), valueClass: 'non-ascii' },
  { what: 'non-Latin script', id: encodeURIComponent('ランタイム'), valueClass: 'non-ascii' },
  { what: 'an emoji', id: encodeURIComponent('🦖'), valueClass: 'non-ascii' },
];

/** An id as a string, where its percent-encoding decodes; undefined for an id of bytes that are no UTF-8 (a router cannot route it). */
export function decodedId(id: string): string | undefined {
  try {
    return decodeURIComponent(id);
  } catch {
    return undefined;
  }
}

/** A look-alike must not be a real version: the table and the document's list are kept apart here. */
const isAccepted = (id: string) => (RUNTIME_VERSIONS as readonly string[]).includes(id);

/**
 * The properties every JavaScript object inherits (`constructor`, `__proto__`, `toString`…): a runtime
 * looked up in a plain object finds them though nobody listed them.
 */
const INHERITED_NAMES = Object.getOwnPropertyNames(Object.prototype);

/** Values of one operator tried: two where it makes several (a space and a tab, `_` and `,`). */
const PER_OPERATOR = 2;
const SEEDED = 2;

/** An id as a title shows it: quoted, with every character outside printable ASCII escaped. */
const showId = (id: string) => `"${[...id].map((c) => (c >= ' ' && c <= '~' && c !== '"' ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`)).join('')}"`;

/**
 * The near misses of the accepted versions as runtime ids: the oracle is the document's list (any id
 * that is not an accepted version answers 404, RT-9). Only strings go into a path, never empty; an id
 * the table lists already is not sent twice.
 */
export function generatedIds(seed: number): UnknownId[] {
  const listed = new Set(UNKNOWN_IDS.map((u) => decodedId(u.id) ?? u.id));
  const keep = (v: unknown) => typeof v === 'string' && v.trim() !== '' && !isAccepted(v) && !listed.has(v);
  const near = nearMissesAt({
    ruleIndex: 0,
    places: ['runtime'],
    place: 'runtime',
    domain: RUNTIME_VERSIONS,
    keep,
    seed,
    perPlace: PER_OPERATOR,
    operators: PATH_OPERATORS,
  });
  const taken = new Set(near.map((g) => g.value as string));
  const arbitrary = fc.tuple(fc.integer({ min: 2019, max: 2029 }), fc.integer({ min: 0, max: 13 })).map(([y, m]) => `${y}.${String(m).padStart(2, '0')}`);
  const seeded = seededValues(arbitrary, seed, 0, SEEDED - 1, (v) => keep(v) && !taken.has(v as string));
  const unknownId = (value: unknown, valueClass: string, how: string): UnknownId => ({
    what: `${how}: ${showId(value as string)}`,
    id: encodeURIComponent(value as string),
    valueClass,
  });
  return [
    ...near.map((g) => unknownId(g.value, g.name, `near miss, ${g.operator}`)),
    ...seeded.map((g) => unknownId(g.value, g.name, 'seeded')),
    // One seeded draw from the names a lookup table answers without anyone putting them there.
    ...seededValues(fc.constantFrom(...INHERITED_NAMES), seed, 1, 1, keep).map((g) => unknownId(g.value, 'inherited-name', 'inherited-name')),
  ];
}
