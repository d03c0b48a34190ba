/**
 * The frequencyOffset oracle, tested two ways: exhaustively against a table of maxima worked out by hand
 * from the document (so a slip in the oracle's formula cannot agree with itself), and by properties
 * that must hold for any frequency and offset (fast-check).
 */
import { isDeepStrictEqual } from 'node:util';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { CHECK_TYPES, KNOWN_FREQUENCIES } from '../../support/document/facts';
import { frequencyOffsetRuling, maxOffset } from '../../support/check-update/frequency-offset';

/** floor(f * 10) up to 60, ceil(f / 60) above: computed by hand, not by the oracle's code. */
const HAND_MAX: Record<number, number> = {
  1: 10,
  2: 20,
  5: 50,
  10: 100,
  15: 150,
  30: 300,
  60: 600,
  120: 2,
  180: 3,
  360: 6,
  720: 12,
  1440: 24,
};

const NON_API = CHECK_TYPES.filter((t) => t !== 'API');

/** Every kind of value fast-check makes, the awkward ones included (null prototypes, boxed values,
 * objects whose toString is not a function, BigInt, sparse and typed arrays, maps, sets, dates). Made on
 * first use, not when the file is loaded: building it takes two seconds (its Unicode strings), and the
 * runner loads every file to list the tests. */
let madeAnyOffset: fc.Arbitrary<unknown> | undefined;
const anyOffset = () =>
  (madeAnyOffset ??= fc.anything({
    withBoxedValues: true,
    withMap: true,
    withSet: true,
    withObjectString: true,
    withNullPrototype: true,
    withBigInt: true,
    withDate: true,
    withTypedArray: true,
    withSparseArray: true,
    withUnicodeString: true,
  }));

test.describe('frequencyOffset oracle: every known frequency, offsets -1..max+2', () => {
  test('the hand table covers every known frequency', () => {
    expect(
      Object.keys(HAND_MAX)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(KNOWN_FREQUENCIES.filter((f) => f > 0));
  });

  for (const f of KNOWN_FREQUENCIES.filter((f) => f > 0)) {
    test(`frequency ${f}`, () => {
      const max = HAND_MAX[f];
      const clause = f <= 60 ? 'FO-2' : 'FO-3';
      expect(maxOffset(f)).toBe(max);
      // Every disagreement listed at once (and one expect, not thousands: each costs Playwright a step).
      const wrong: string[] = [];
      for (let o = -1; o <= max + 2; o++) {
        for (const type of ['API', 'BROWSER']) {
          const r = frequencyOffsetRuling(type, f, o);
          const expected = { accepted: o >= 1 && o <= max, clause: o < 1 ? 'FO-4' : clause };
          if (r.accepted !== expected.accepted || r.clause !== expected.clause)
            wrong.push(`${type} f=${f} o=${o}: ${r.accepted} ${r.clause}, expected ${expected.accepted} ${expected.clause}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  test('frequency 0 on an API check: 10, 20, 30 only', () => {
    expect(maxOffset(0)).toBe(30);
    for (let o = -1; o <= 32; o++) {
      const r = frequencyOffsetRuling('API', 0, o);
      expect(r.accepted, `o=${o}`).toBe([10, 20, 30].includes(o));
      expect(r.clause, `o=${o}`).toBe(o < 1 ? 'FO-4' : 'FO-1');
    }
  });

  test('frequency 0 on every other check type: rejected whatever the offset (FO-5)', () => {
    for (const type of NON_API) {
      for (const o of [-1, 0, 1, 9, 10, 20, 30, 31, 1.5, '10', null]) {
        expect(frequencyOffsetRuling(type, 0, o), `${type} o=${String(o)}`).toMatchObject({ accepted: false, clause: 'FO-5' });
      }
    }
  });

  test('not an integer >= 1: fractional, strings, null, booleans, NaN, Infinity are FO-4', () => {
    const bad: unknown[] = [0, -1, -10, 1.5, 0.5, 10.5, 2.000001, '5', '10', '', 'abc', null, undefined, true, false, NaN, Infinity, -Infinity, [], {}, [10]];
    for (const f of KNOWN_FREQUENCIES) {
      for (const o of bad) {
        expect(frequencyOffsetRuling('API', f, o), `f=${f} o=${JSON.stringify(o)}`).toMatchObject({ accepted: false, clause: 'FO-4' });
      }
    }
  });
});

test.describe('frequencyOffset oracle: properties', () => {
  const type = fc.constantFrom(...CHECK_TYPES);
  const positiveFrequency = fc.oneof(
    fc.constantFrom(...KNOWN_FREQUENCIES.filter((f) => f > 0)),
    fc.integer({ min: 1, max: 100_000 }),
    fc.double({ min: 0.1, max: 100_000, noNaN: true }),
  );

  test('for f in (0, 60] exactly the integers 1..floor(10f) are accepted, for any check type', () => {
    fc.assert(
      fc.property(type, fc.double({ min: 0.1, max: 60, noNaN: true }), fc.integer({ min: -5, max: 700 }), (t, f, o) => {
        const r = frequencyOffsetRuling(t, f, o);
        return r.accepted === (o >= 1 && o <= Math.floor(f * 10)) && r.clause === (o < 1 ? 'FO-4' : 'FO-2');
      }),
    );
  });

  test('for f > 60 exactly the integers 1..ceil(f/60) are accepted, for any check type', () => {
    fc.assert(
      fc.property(type, fc.double({ min: 60.000001, max: 100_000, noNaN: true }), fc.integer({ min: -5, max: 2000 }), (t, f, o) => {
        const r = frequencyOffsetRuling(t, f, o);
        return r.accepted === (o >= 1 && o <= Math.ceil(f / 60)) && r.clause === (o < 1 ? 'FO-4' : 'FO-3');
      }),
    );
  });

  test('the accepted offsets are contiguous from 1: o accepted implies o - 1 accepted (o > 1)', () => {
    fc.assert(
      fc.property(
        positiveFrequency,
        fc.integer({ min: 2, max: 5000 }),
        (f, o) => !frequencyOffsetRuling('API', f, o).accepted || frequencyOffsetRuling('API', f, o - 1).accepted,
      ),
    );
  });

  test('maxOffset agrees with the ruling: 1..max accepted, max + 1 rejected', () => {
    fc.assert(
      fc.property(positiveFrequency, (f) => {
        const max = maxOffset(f);
        return (
          frequencyOffsetRuling('API', f, 1).accepted && frequencyOffsetRuling('API', f, max).accepted && !frequencyOffsetRuling('API', f, max + 1).accepted
        );
      }),
    );
  });

  test('a fractional offset is never accepted (FO-4)', () => {
    fc.assert(
      fc.property(
        type,
        fc.constantFrom(...KNOWN_FREQUENCIES),
        fc.double({ noNaN: true }).filter((o) => !Number.isInteger(o)),
        (t, f, o) => {
          const r = frequencyOffsetRuling(t, f, o);
          return !r.accepted && r.clause === (f === 0 && t !== 'API' ? 'FO-5' : 'FO-4');
        },
      ),
    );
  });

  test('a string offset is never accepted, even one that reads as an allowed number', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KNOWN_FREQUENCIES), fc.oneof(fc.string(), fc.integer({ min: 1, max: 30 }).map(String)), (f, o) => {
        const r = frequencyOffsetRuling('API', f, o);
        return !r.accepted && r.clause === 'FO-4';
      }),
    );
  });

  test('frequency 0: accepted only for an API check with 10, 20 or 30', () => {
    fc.assert(
      fc.property(type, fc.oneof(fc.integer({ min: -50, max: 100 }), fc.constantFrom(10, 20, 30)), (t, o) => {
        const r = frequencyOffsetRuling(t, 0, o);
        return r.accepted === (t === 'API' && [10, 20, 30].includes(o)) && (t === 'API' || r.clause === 'FO-5');
      }),
    );
  });

  test('the ruling is pure: the same inputs give the same answer', () => {
    fc.assert(
      fc.property(type, fc.constantFrom(...KNOWN_FREQUENCIES), anyOffset(), (t, f, o) =>
        isDeepStrictEqual(frequencyOffsetRuling(t, f, o), frequencyOffsetRuling(t, f, o)),
      ),
      { numRuns: 1000 },
    );
  });

  test('the ruling is total: any offset gets a ruling, and only an integer can be accepted', () => {
    fc.assert(
      fc.property(type, fc.constantFrom(...KNOWN_FREQUENCIES), anyOffset(), (t, f, o) => {
        const r = frequencyOffsetRuling(t, f, o);
        return !r.accepted || Number.isInteger(o);
      }),
      { numRuns: 1000 },
    );
  });
});

test.describe('frequencyOffset oracle: values no parser expects', () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const throwing = new Proxy(
    {},
    {
      get: () => {
        throw new Error('trap');
      },
      ownKeys: () => {
        throw new Error('trap');
      },
      getPrototypeOf: () => {
        throw new Error('trap');
      },
    },
  );
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const awkward: Array<[string, unknown]> = [
    ['an array holding an object whose toString is null', [{ toString: null }]],
    ['an object whose toString and valueOf are null', { toString: null, valueOf: null }],
    [
      'an object whose toString throws',
      {
        toString: () => {
          throw new Error('no');
        },
      },
    ],
    ['a null-prototype object', Object.create(null)],
    ['a cyclic object', cyclic],
    ['a BigInt', 10n],
    ['an object holding a BigInt', { n: 10n }],
    ['a symbol', Symbol('s')],
    ['a function', () => 1],
    ['a revoked proxy', revoked.proxy],
    ['a proxy whose every trap throws', throwing],
    ['undefined', undefined],
  ];

  for (const [what, value] of awkward) {
    test(`${what}: ruled FO-4 without throwing`, () => {
      for (const f of KNOWN_FREQUENCIES) expect(frequencyOffsetRuling('API', f, value)).toMatchObject({ accepted: false, clause: 'FO-4' });
    });
  }
});
