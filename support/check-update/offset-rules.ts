/**
 * The frequencyOffset rules (FO-1..FO-5) as cases: a body of frequency, offset and type and the stored values it presumes,
 * with no verdict of their own: the one oracle (frequency-offset.ts) judges each on the check as it is after the update.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { nearMissesAt, seededValues } from '../document/case-choice';
import { CHECK_TYPES, SUB_MINUTE_CHECK_TYPE, SUB_MINUTE_OFFSETS } from '../document/facts';
import { frequencyOffsetRuling, maxOffset } from './frequency-offset';
import { CHECK_KINDS, type CheckKind } from './table';
import { seedOf, type CellContext } from './value-rules';

/** A stored state by role: what a case presumes before its body is sent, and the body. */
export interface Coupled {
  checkType?: string;
  frequency?: number;
  frequencyOffset?: unknown;
}

/** One case: its value class after `<check>:`, the state it presumes and the body it sends. */
export interface OffsetCase {
  cls: string;
  given: Coupled;
  body: Coupled;
}

/** Both orders of frequency and offset in a body, by the offset's parity: a target that judges the offset before it reads the frequency is caught. */
const offsetAt = (cls: string, frequency: number, offset: unknown): OffsetCase => ({
  cls: `frequencyOffset:${cls}`,
  given: {},
  body: typeof offset === 'number' && Math.abs(offset % 2) === 1 ? { frequencyOffset: offset, frequency } : { frequency, frequencyOffset: offset },
});

/** The frequency the neutral state uses: 10 where listed, else the first of 1..60, else any above 0. */
export const lowFrequency = (listed: readonly number[]) => (listed.includes(10) ? 10 : (listed.find((f) => f > 0 && f <= 60) ?? listed.find((f) => f > 0)));
const highFrequency = (listed: readonly number[]) => (listed.includes(120) ? 120 : listed.find((f) => f > 60));

/** The frequencies whose boundaries are tried: all of the target's on the API check, the edges of each rule on the browser check (the same arithmetic). */
export function frequenciesFor(check: CheckKind, listed: readonly number[]): number[] {
  if (check === 'api') return [...listed];
  const low = listed.filter((f) => f > 0 && f <= 60);
  const high = listed.filter((f) => f > 60);
  const edges = [listed.includes(0) ? 0 : undefined, low[0], low[low.length - 1], high[0], high[high.length - 1]];
  return [...new Set(edges.filter((f): f is number => f !== undefined))].sort((a, b) => a - b);
}

/** Offsets 0, 1, the largest allowed and one more at each frequency; at 0, the three and their neighbours. */
export function boundaryCases(c: CellContext, inRange: (f: number) => boolean = () => true): OffsetCase[] {
  return frequenciesFor(c.check, c.frequencies)
    .filter(inRange)
    .flatMap((f) => {
      // On the browser check every offset is wrong at frequency 0 (FO-5): the three the API check may have.
      if (f === 0) return (c.check === 'browser' ? [10, 20, 30] : [0, 1, 9, 10, 11, 19, 20, 21, 29, 30, 31]).map((o) => offsetAt(`f0-${o}`, 0, o));
      const max = maxOffset(f);
      return Object.entries({ 0: 0, 1: 1, max, 'max+1': max + 1 }).map(([name, o]) => offsetAt(`f${f}-${name}`, f, o));
    });
}

/** The offset the FO-4 cells presume stored (valid at any frequency above 0), whose near misses they send. */
const STORED_OFFSET = 1;
/** The same, at frequency 0 (API check) and above 60: a careless parser there is a path of its own. */
const NOT_AN_OFFSET_AT_ZERO = { float: 10.5, 'numeric-string': '10' };
const NOT_AN_OFFSET_ABOVE_60 = { float: 1.5 };

/** FO-4: near misses of the stored offset at a low frequency, a few at zero and a high frequency, and one seeded frequency and offset. */
export function notAnOffsetCases(c: CellContext): OffsetCase[] {
  const low = lowFrequency(c.frequencies);
  const high = highFrequency(c.frequencies);
  // Not the boundaries FO-low sends at that frequency already.
  const sent = low === undefined ? [] : boundaryCases(c, (f) => f === low).map((x) => x.body.frequencyOffset);
  const keep = (v: unknown) => low !== undefined && !frequencyOffsetRuling(c.ownType, low, v).accepted && !sent.includes(v);
  const near = nearMissesAt({ ruleIndex: 0, places: CHECK_KINDS, place: c.check, domain: [STORED_OFFSET], keep, seed: seedOf(c) });
  const given = { frequency: low, frequencyOffset: STORED_OFFSET };
  // One frequency above 0 and an offset from -2 to three over its largest, drawn with the run's seed.
  const pair = () =>
    fc.constantFrom(...c.frequencies.filter((f) => f > 0)).chain((f) => fc.tuple(fc.constant(f), fc.integer({ min: -2, max: maxOffset(f) + 3 })));
  const seeded = low === undefined ? [] : seededValues(pair(), seedOf(c), 100 + CHECK_KINDS.indexOf(c.check), 1, () => true).map((d) => d.value as number[]);
  return [
    ...(low === undefined ? [] : near.map((g) => ({ ...offsetAt(g.name, low, g.value), given }))),
    ...(c.frequencies.includes(0) && c.check === 'api' ? Object.entries(NOT_AN_OFFSET_AT_ZERO).map(([name, o]) => offsetAt(`f0-${name}`, 0, o)) : []),
    ...(high === undefined ? [] : Object.entries(NOT_AN_OFFSET_ABOVE_60).map(([name, o]) => offsetAt(`f${high}-${name}`, high, o))),
    ...seeded.map(([frequency, offset]) => offsetAt(`f${frequency}:seeded:1`, frequency, offset)),
  ];
}

/** Values of one operator tried at frequency 0: the misses are the next members of 10, 20, 30 and their signs flipped. */
const PER_OPERATOR_AT_ZERO = 3;

/** Frequency 0 beyond the boundaries: near misses of 10, 20 and 30 on the API check, and every documented type but API (FO-5), spread over both checks. */
export function atZeroCases(c: CellContext): OffsetCase[] {
  if (!c.frequencies.includes(0)) return [];
  const offsets: OffsetCase[] = [];
  if (c.check === 'api' && c.ownType === SUB_MINUTE_CHECK_TYPE) {
    const listed = [...boundaryCases(c, (f) => f === 0).map((x) => x.body.frequencyOffset), ...Object.values(NOT_AN_OFFSET_AT_ZERO)];
    const keep = (v: unknown) => !frequencyOffsetRuling(c.ownType, 0, v).accepted && !listed.some((x) => isDeepStrictEqual(x, v));
    const near = nearMissesAt({
      ruleIndex: 0,
      places: ['api'],
      place: 'api',
      domain: [...SUB_MINUTE_OFFSETS],
      keep,
      seed: seedOf(c),
      perPlace: PER_OPERATOR_AT_ZERO,
    });
    offsets.push(...near.map((g) => offsetAt(`f0:${g.name}`, 0, g.value)));
  }
  const p = CHECK_KINDS.indexOf(c.check);
  const types = CHECK_TYPES.filter((t) => t !== SUB_MINUTE_CHECK_TYPE)
    .filter((t, i) => (t === c.ownType ? false : i % CHECK_KINDS.length === p || (t === 'BROWSER' && c.check === 'api')))
    .map((type): OffsetCase => ({ cls: `combo:f0-as-${type}`, given: {}, body: { checkType: type, frequency: 0, frequencyOffset: 10 } }));
  return [...offsets, ...types];
}

/** The frequencies a combination names: 0 where listed, a low one (1..60), a high one (above 60), and the largest of 1..60 above the low one. */
type Named = Record<'zero' | 'low' | 'high' | 'top', number | undefined>;
const max = (f: number | undefined) => (f === undefined ? undefined : maxOffset(f));
const plus1 = (f: number | undefined) => (f === undefined ? undefined : maxOffset(f) + 1);
const stored = (frequency: number | undefined, frequencyOffset: number | undefined): Coupled => ({ frequency, frequencyOffset });

/**
 * A body that sends frequency, offset or type alone is judged with the stored values of the others: each combination names its
 * checks (default: both), and the stored frequency and offset and the body by the target's frequencies; `{low}`, `{high}` and
 * `{top}` in a name are those frequencies. A combination is tried where the target lists every frequency it names.
 */
const COMBINATIONS: Array<{ name: string; places?: readonly CheckKind[]; at: (f: Named) => [given: Coupled, body: Coupled] }> = [
  // In an order where most cells find the state the one before left (few set-ups).
  { name: 'offset-alone-at-{low}-max+1', at: ({ low }) => [stored(low, 1), { frequencyOffset: plus1(low) }] },
  // Frequency 0 refused (the stored offset 1 is none of 10, 20, 30), then an offset sent alone that 0
  // would refuse: a refused body leaves no trace on the next judgement (FO-2 with the stored frequency).
  { name: 'frequency-alone-to-f0-offset-too-small', places: ['api'], at: ({ low, zero }) => [stored(low, 1), { frequency: zero }] },
  { name: 'offset-alone-at-{low}-max', at: ({ low }) => [stored(low, 1), { frequencyOffset: max(low) }] },
  // The stored offset is the low frequency's largest: too large for the high one.
  { name: 'frequency-alone-to-{high}-offset-out-of-range', at: ({ low, high }) => [stored(low, max(low)), { frequency: high }] },
  // Frequency changed within 1..60 alone: raised over an offset the new one allows, then lowered under
  // one over what the lower one allows (FO-2 read on the check as it is after the update, not only
  // when an offset is sent).
  { name: 'frequency-alone-up-to-{top}-offset-in-range', at: ({ low, top }) => [stored(low, max(low)), { frequency: top }] },
  { name: 'frequency-alone-down-to-{low}-offset-out-of-range', at: ({ low, top }) => [stored(top, plus1(low)), { frequency: low }] },
  { name: 'offset-alone-at-{high}-max+1', at: ({ high }) => [stored(high, 1), { frequencyOffset: plus1(high) }] },
  { name: 'offset-alone-at-{high}-max', at: ({ high }) => [stored(high, 1), { frequencyOffset: max(high) }] },
  { name: 'frequency-alone-to-{low}-offset-in-range', at: ({ low, high }) => [stored(high, max(high)), { frequency: low }] },
  // FO-5 on the browser check: frequency 0 sent alone, the stored offset one an API check could have.
  { name: 'frequency-alone-to-f0', places: ['browser'], at: ({ low, zero }) => [stored(low, 10), { frequency: zero }] },
  { name: 'frequency-alone-to-f0-offset-10', places: ['api'], at: ({ low, zero }) => [stored(low, 10), { frequency: zero }] },
  { name: 'offset-alone-at-f0-other', places: ['api'], at: ({ zero }) => [stored(zero, 10), { frequencyOffset: 15 }] },
  // FO-5 on the API check: turned into a browser check while at frequency 0, alone or in one body.
  { name: 'type-alone-to-BROWSER-at-f0', places: ['api'], at: ({ zero }) => [stored(zero, 10), { checkType: 'BROWSER' }] },
  { name: 'offset-alone-at-f0-allowed', places: ['api'], at: ({ zero }) => [stored(zero, 10), { frequencyOffset: 20 }] },
  {
    name: 'to-BROWSER-at-f0-in-one-body',
    places: ['api'],
    at: ({ low, zero }) => [stored(low, 1), { checkType: 'BROWSER', frequency: zero, frequencyOffset: 10 }],
  },
];

export function combinationCases(c: CellContext): OffsetCase[] {
  const low = lowFrequency(c.frequencies);
  // The largest listed frequency of 1..60 above the low one: its largest offset is too large for the low one.
  const above = c.frequencies.filter((f) => low !== undefined && f > low && f <= 60);
  const f = { zero: c.frequencies.includes(0) ? 0 : undefined, low, high: highFrequency(c.frequencies), top: above.length ? Math.max(...above) : undefined };
  const named = (name: string) => name.replace('{low}', `f${f.low}`).replace('{high}', `f${f.high}`).replace('{top}', `f${f.top}`);
  return COMBINATIONS.filter((x) => (x.places ?? CHECK_KINDS).includes(c.check)).flatMap((x) => {
    const [given, body] = x.at(f);
    return [...Object.values(given), ...Object.values(body)].includes(undefined) ? [] : [{ cls: `combo:${named(x.name)}`, given, body }];
  });
}
