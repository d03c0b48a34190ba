/**
 * How generated values are chosen for every rule: each operator's results spread over the rule's places
 * (pairwise, not the full product), and a few values drawn with the run's seed, which also rotates the
 * valid value each operator starts from, so the same seed replays the same values.
 */
import fc from 'fast-check';
import { SENT_OPERATORS, type NearMissOperator } from './near-miss';

export interface Generated {
  /** `near-miss:<operator>` or `near-miss:<operator>:<n>` for its n-th value at one place; `seeded:<n>`. */
  name: string;
  operator: string;
  value: unknown;
}

const key = (v: unknown) => JSON.stringify(v);

/** A whole number from the seed and a few indices, the same in every process. */
function mix(seed: number, ...xs: number[]): number {
  let h = seed >>> 0;
  for (const x of xs) h = Math.imul(h ^ (x + 0x9e3779b9), 0x85ebca6b) >>> 0;
  return h;
}

export interface ChoiceInput<P extends string> {
  /** The rule's position in its family: rotates which place an operator with one value goes to. */
  ruleIndex: number;
  places: readonly P[];
  place: P;
  domain: readonly unknown[];
  /** Whether a value is worth sending: judged by the oracle (not valid) and not already a listed case. */
  keep: (value: unknown) => boolean;
  seed: number;
  /** At most this many values of one operator at one place (default 1). */
  perPlace?: number;
  operators?: readonly NearMissOperator[];
}

/**
 * The near misses one place gets. An operator with at least as many values as there are places gives
 * each place its own (a different value each); one with fewer goes to the places its rule and operator
 * rotate to.
 */
export function nearMissesAt<P extends string>(input: ChoiceInput<P>): Generated[] {
  const { ruleIndex, places, place, domain, keep, seed, perPlace = 1, operators = SENT_OPERATORS } = input;
  const p = places.indexOf(place);
  if (p < 0 || !domain.length) return [];
  const seen = new Set(domain.map(key));
  const out: Generated[] = [];
  operators.forEach((op, o) => {
    const start = mix(seed, ruleIndex, o) % domain.length;
    // The first valid value, from the seed's start, that gives the operator something worth sending.
    let values: unknown[] = [];
    for (let i = 0; i < domain.length && !values.length; i++) {
      const valid = domain[(start + i + p) % domain.length];
      values = op.apply(valid, domain).filter((v) => v !== undefined && (typeof v !== 'number' || Number.isFinite(v)) && !seen.has(key(v)) && keep(v));
    }
    values = [...new Map(values.map((v) => [key(v), v])).values()];
    if (!values.length) return;
    let mine: unknown[];
    if (values.length >= places.length) {
      const first = mix(seed, ruleIndex, o, 1) % values.length;
      mine = Array.from(
        { length: Math.min(perPlace, Math.floor(values.length / places.length)) || 1 },
        (_, k) => values[(first + p + k * places.length) % values.length],
      );
    } else {
      const slot = (p - ((ruleIndex + o) % places.length) + places.length) % places.length;
      mine = slot < values.length ? [values[slot]] : [];
    }
    mine.forEach((value, k) => {
      if (seen.has(key(value))) return;
      seen.add(key(value));
      out.push({ name: `near-miss:${op.name}${k ? `:${k + 1}` : ''}`, operator: op.name, value });
    });
  });
  return out;
}

/** Values drawn from an arbitrary with the seed (one stream per rule and place), those `keep` takes. */
export function seededValues(arbitrary: fc.Arbitrary<unknown>, seed: number, stream: number, count: number, keep: (v: unknown) => boolean): Generated[] {
  // A seeded sample of n values is the first n of the longer one: draw a few, and the rest only when
  // the few were not enough (drawing all 20 at once was most of a worker's time in this module).
  for (const numRuns of [count * 3, count * 20]) {
    const drawn = fc.sample(arbitrary, { seed: mix(seed, stream) | 0, numRuns });
    const seen = new Set<string>();
    const out: Generated[] = [];
    for (const value of drawn) {
      if (out.length >= count) break;
      if (seen.has(key(value)) || !keep(value)) continue;
      seen.add(key(value));
      out.push({ name: `seeded:${out.length + 1}`, operator: 'seeded', value });
    }
    if (out.length >= count || numRuns === count * 20) return out;
  }
  return [];
}
