/**
 * The near-miss operators and how generated values are chosen: each operator makes what its name says,
 * a value the domain holds is never a near miss, operators that cannot change the wire are never sent,
 * and the choice is the same for the same seed and covers every operator on every rule and place.
 */
import { expect, test } from '@playwright/test';
import { nearMissesAt, seededValues } from '../../support/document/case-choice';
import { DEFAULT_CASE_SEED } from '../../support/document/case-seed';
import { NEAR_MISS_OPERATORS, PATH_OPERATORS, SENT_OPERATORS, type NearMissOperator } from '../../support/document/near-miss';
import fc from 'fast-check';

const op = (name: string) => NEAR_MISS_OPERATORS.find((o) => o.name === name)!;
const apply = (name: string, v: unknown, domain: readonly unknown[] = []) => op(name).apply(v, domain);

test('the misses the issue names are made: a trailing space, another separator, fullwidth digits', () => {
  expect(apply('trailing-space', '2025.04')).toEqual(['2025.04 ']);
  expect(apply('other-separator', '2026.04')).toEqual(expect.arrayContaining(['2026_04', '2026,04', '2026-04', '202604']));
  expect(apply('fullwidth', '2026.04')).toEqual(['２０２６．０４']);
  expect((apply('fullwidth', '2026.04')[0] as string).normalize('NFKC')).toBe('2026.04');
});

test('the next and previous members of a pattern, and the sign flipped', () => {
  expect(apply('next-in-pattern', 10, [10, 20, 30])).toEqual([40, 50, 60]);
  expect(apply('previous-in-pattern', 10, [10, 20, 30])).toEqual([0, -10, -20]);
  expect(apply('sign-flip', 20)).toEqual([-20]);
  expect(apply('sign-flip', 0)).toEqual([]);
  // A year.month id moves by a month and by a year, written the same way.
  expect(apply('next-in-pattern', '2026.04')).toEqual(['2026.05', '2027.04']);
  expect(apply('previous-in-pattern', '2024.01')).toEqual(['2023.12', '2023.01']);
});

test('Unicode forms: decomposed only where it differs, zero-width, look-alike letters and digits', () => {
  expect(apply('decomposed', 'us-east-1')).toEqual([]);
  expect(apply('decomposed', 'é')).toEqual(['e\u0301']);
  expect(apply('zero-width', 'us-east-1')).toEqual(['us-\u200beast-1', '\ufeffus-east-1']);
  expect(apply('look-alike', 'eu-west-1')).toEqual(['\u0435u-west-1']);
  expect(apply('other-digits', '2026.04')).toEqual(['٢٠٢٦.٠٤', '२०२६.०४']);
  expect(apply('case', 'us-east-1')).toEqual(['US-EAST-1', 'Us-east-1']);
});

test('an array value: the string operators act on its item; in-array unwraps and nests it', () => {
  expect(apply('trailing-space', ['us-east-1', 'eu-west-1'])).toEqual([['us-east-1 ', 'eu-west-1']]);
  expect(apply('in-array', ['us-east-1'])).toEqual(['us-east-1', [['us-east-1']]]);
  expect(apply('in-array', 'API')).toEqual([['API']]);
});

test('types: numbers and numeric strings trade places; booleans, null, empty', () => {
  expect(apply('numeric-string', 10)).toEqual(['10']);
  expect(apply('numeric-string', '2026.04')).toEqual([2026.04]);
  expect(apply('numeric-string', 'API')).toEqual([]);
  expect(apply('boolean', 'x')).toEqual([true, 'true']);
  expect(apply('empty', ['a'])).toEqual([[]]);
  expect(apply('fraction', 10)).toEqual([5, 1, 10.5]);
});

test('zero: the zero value of its type, an id of hexadecimal digits in its own shape (the nil GUID)', () => {
  expect(apply('zero', '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c')).toEqual(['00000000-0000-0000-0000-000000000000']);
  expect(apply('zero', '2026.04')).toEqual(['0000.00']);
  expect(apply('zero', 30)).toEqual([0]);
  expect(apply('zero', 0)).toEqual([]);
  expect(apply('zero', 'us-east-1')).toEqual([]);
  expect(apply('zero', '0000')).toEqual([]);
});

test('one part changed: each part of a structured value in turn, in its own class (a GUID stays a well-formed GUID); a value of one part has none', () => {
  expect(apply('one-part-changed', '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c')).toEqual([
    '7f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c',
    '6f1d2c3b-5a5e-4f60-8b7c-9d0e1f2a3b4c',
    '6f1d2c3b-4a5e-5f60-8b7c-9d0e1f2a3b4c',
    '6f1d2c3b-4a5e-4f60-9b7c-9d0e1f2a3b4c',
    '6f1d2c3b-4a5e-4f60-8b7c-ad0e1f2a3b4c',
  ]);
  expect(apply('one-part-changed', 'mon_demo_f00')).toEqual(['non_demo_f00', 'mon_eemo_f00', 'mon_demo_g00']);
  expect(apply('one-part-changed', '2025.04')).toEqual(['3025.04', '2025.14']);
  expect(apply('one-part-changed', 'API')).toEqual([]);
});

test('separator moved: the first separator one character later, the characters kept', () => {
  expect(apply('separator-moved', '2025.04')).toEqual(['20250.4']);
  expect(apply('separator-moved', '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c')).toEqual(['6f1d2c3b4-a5e-4f60-8b7c-9d0e1f2a3b4c']);
  expect(apply('separator-moved', 'us-east-1')).toEqual(['use-ast-1']);
  expect(apply('separator-moved', 'API')).toEqual([]);
});

test('an operator that cannot change the wire is declared, with its reason, and never sent', () => {
  const declared = NEAR_MISS_OPERATORS.filter((o) => o.sameOnWire);
  expect(declared.map((o) => o.name)).toEqual(['number-written-otherwise', 'percent-encoded-unreserved']);
  for (const o of declared) {
    expect(o.sameOnWire!.length).toBeGreaterThan(20);
    expect(SENT_OPERATORS).not.toContain(o);
  }
});

test('an operator only a router can fall for is declared, with its reason, and sent only in a path', () => {
  const pathOnly = NEAR_MISS_OPERATORS.filter((o) => o.pathOnly);
  expect(pathOnly.map((o) => o.name)).toEqual(['format-suffix', 'in-longer-path', 'decoded-twice']);
  for (const o of pathOnly) {
    expect(o.pathOnly!.length).toBeGreaterThan(20);
    expect(SENT_OPERATORS).not.toContain(o);
    expect(PATH_OPERATORS).toContain(o);
  }
  expect(apply('format-suffix', '2025.04')).toEqual(['2025.04.json']);
  // Decoded, a basename, a trailing slash stripped or `..` resolved gives the version back.
  expect(apply('in-longer-path', '2025.04')).toEqual(['2025.04/', 'x/2025.04', 'x/../2025.04']);
  // Decoded once more, the first is the version; the second cannot be decoded again.
  expect(apply('decoded-twice', '2025.04')).toEqual(['2025%2E04', '2025.04%']);
  expect(decodeURIComponent(apply('decoded-twice', '2025.04')[0] as string)).toBe('2025.04');
});

/** Every near miss one place gets of a domain, from the operators given (the sent ones by default). */
const allAt = (domain: unknown[], operators: readonly NearMissOperator[] = SENT_OPERATORS) =>
  nearMissesAt({ ruleIndex: 0, places: ['p'], place: 'p', domain, keep: () => true, seed: DEFAULT_CASE_SEED, perPlace: 10, operators });

test('a near miss is never a value of the domain, and never repeated', () => {
  const all = allAt(['2026.04', '2025.04']);
  const keys = all.map((m) => JSON.stringify(m.value));
  expect(new Set(keys).size).toBe(keys.length);
  expect(all.some((m) => m.value === '2025.04' || m.value === '2026.04')).toBe(false);
  expect(all.find((m) => m.operator === 'next-in-pattern')?.value).toMatch(/^202[67]\.0[45]$/);
});

test('every operator is total: any value, no throw; what is sent is never undefined or a non-finite number', () => {
  const unsendable = (value: unknown) => value === undefined || (typeof value === 'number' && !Number.isFinite(value));
  fc.assert(
    fc.property(fc.anything(), fc.array(fc.anything(), { maxLength: 4 }), (v, domain) => {
      for (const o of NEAR_MISS_OPERATORS) o.apply(v, domain);
      // One expect per run, not per miss: each expect is a step of the test, and thousands of them cost seconds.
      expect(allAt([v, ...domain], NEAR_MISS_OPERATORS).filter((m) => unsendable(m.value))).toEqual([]);
    }),
    { seed: DEFAULT_CASE_SEED, numRuns: 200 },
  );
});

test('the choice: every operator that has a value meets the rule at some place; the same seed chooses the same', () => {
  const domain = ['2026.04', '2025.04', '2024.09'];
  const choose = (seed: number, place: 'api' | 'browser') => nearMissesAt({ ruleIndex: 3, places: ['api', 'browser'], place, domain, keep: () => true, seed });
  const both = [...choose(1, 'api'), ...choose(1, 'browser')];
  const productive = SENT_OPERATORS.filter((o) => domain.some((d) => o.apply(d, domain).length));
  expect(new Set(both.map((g) => g.operator))).toEqual(new Set(productive.map((o) => o.name)));
  expect(choose(1, 'api')).toEqual(choose(1, 'api'));
  expect(JSON.stringify([...choose(2, 'api'), ...choose(2, 'browser')])).not.toBe(JSON.stringify(both));
  // An operator with several values gives each place its own.
  const sep = both.filter((g) => g.operator === 'other-separator').map((g) => g.value);
  expect(sep).toHaveLength(2);
  expect(sep[0]).not.toBe(sep[1]);
});

test('seeded values: the same seed draws the same, kept values only', () => {
  const arb = fc.integer({ min: 0, max: 1000 });
  const odd = (v: unknown) => (v as number) % 2 === 1;
  const a = seededValues(arb, 7, 0, 3, odd);
  expect(a).toEqual(seededValues(arb, 7, 0, 3, odd));
  expect(a).toHaveLength(3);
  expect(a.every((g) => odd(g.value) && g.name.startsWith('seeded:'))).toBe(true);
});
