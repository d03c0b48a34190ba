/**
 * The generated values of the check update: the near-miss operators (support/document/near-miss.ts)
 * applied to each value rule's domain (value-rules.ts) and to the offsets of frequency 0, a few seeded
 * values beside them, and frequency 0 with every documented type that is not API. Each is judged by its
 * rule's oracle; cells.ts turns them into cells like the listed classes, and the self-test makes its
 * faults from the same cells.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { DEFAULT_CASE_SEED, nearMissesAt, seededValues } from '../document/case-choice';
import { CHECK_TYPES, SUB_MINUTE_CHECK_TYPE, SUB_MINUTE_OFFSETS } from '../document/facts';
import type { CellContext } from './cells';
import { frequencyOffsetRuling, maxOffset } from './frequency-offset';
import { boundaryOffsets, CHECK_KINDS, NOT_AN_OFFSET_AT_ZERO, type CheckKind, type PropertyRule, type ValueClass } from './table';
import { VALUE_RULES, valueRuleOf } from './value-rules';

const seedOf = (ctx: CellContext) => ctx.seed ?? DEFAULT_CASE_SEED;
const among = (values: unknown[], v: unknown) => values.some((x) => isDeepStrictEqual(x, v));

/** Seeded values per rule and check. */
const SEEDED_PER_PLACE = 1;

/** The generated classes of one property rule on one check, judged by the rule's oracle. */
export function generatedClasses(ctx: CellContext, rule: PropertyRule, valueOf: (c: ValueClass) => unknown): ValueClass[] {
  const vr = valueRuleOf(rule.clause);
  if (!vr || !vr.places.includes(ctx.check)) return [];
  const listed = rule.classes.filter((c) => !c.places || c.places.includes(ctx.check)).map(valueOf);
  const ruleIndex = VALUE_RULES.indexOf(vr);
  const seed = seedOf(ctx);
  const near = nearMissesAt({
    ruleIndex,
    places: vr.places,
    place: ctx.check,
    domain: vr.domain(ctx),
    keep: (v) => vr.oracle(v, ctx) !== 'valid' && !among(listed, v),
    seed,
  });
  const taken = [...listed, ...near.map((g) => g.value)];
  const stream = ruleIndex * CHECK_KINDS.length + CHECK_KINDS.indexOf(ctx.check);
  const seeded = seededValues(vr.arbitrary(ctx), seed, stream, SEEDED_PER_PLACE, (v) => !among(taken, v));
  return [...near, ...seeded].map((g) => ({ name: g.name, value: g.value, ruling: vr.oracle(g.value, ctx) }));
}

export interface GeneratedOffset {
  name: string;
  offset: unknown;
}

/** Values of one operator tried at frequency 0: the misses are the next members of 10, 20, 30 and their signs flipped. */
const PER_OPERATOR_AT_ZERO = 3;

/**
 * Offsets at frequency 0 made by the operators from 10, 20 and 30 (the API check: on any other type
 * every offset is wrong there, FO-5), without the ones the table lists.
 */
export function generatedOffsetsAtZero(ctx: CellContext): GeneratedOffset[] {
  if (ctx.check !== 'api' || !ctx.frequencies.includes(0) || ctx.ownType !== SUB_MINUTE_CHECK_TYPE) return [];
  const listed = [...boundaryOffsets(0, ctx.check).map((o) => o.offset), ...NOT_AN_OFFSET_AT_ZERO.map((o) => o.offset)];
  const domain = [...SUB_MINUTE_OFFSETS];
  const keep = (v: unknown) => !frequencyOffsetRuling(ctx.ownType, 0, v).accepted && !among(listed, v);
  return nearMissesAt({ ruleIndex: 0, places: ['api'], place: 'api', domain, keep, seed: seedOf(ctx), perPlace: PER_OPERATOR_AT_ZERO }).map((g) => ({
    name: `f0:${g.name}`,
    offset: g.value,
  }));
}

/**
 * Frequency 0 with every documented type that is not API (FO-5 names no type but API as allowed): each
 * type on one check, in turn, so both checks see some; offset 10, allowed at frequency 0 on an API check.
 */
export function otherTypesAtZero(ctx: CellContext): Array<{ name: string; type: string }> {
  if (!ctx.frequencies.includes(0)) return [];
  const others = CHECK_TYPES.filter((t) => t !== SUB_MINUTE_CHECK_TYPE);
  const p = CHECK_KINDS.indexOf(ctx.check);
  return others
    .filter((t, i) => (t === ctx.ownType ? false : i % CHECK_KINDS.length === p || (t === 'BROWSER' && ctx.check === 'api')))
    .map((type) => ({ name: `f0-as-${type}`, type }));
}

/** One seeded frequency and offset per check: the oracle judges it, whichever side it falls on. */
export function seededOffset(ctx: CellContext, check: CheckKind): { name: string; frequency: number; offset: unknown } | undefined {
  const frequencies = ctx.frequencies.filter((f) => f > 0);
  if (!frequencies.length) return undefined;
  const arbitrary = fc.constantFrom(...frequencies).chain((f) => fc.tuple(fc.constant(f), fc.integer({ min: -2, max: maxOffset(f) + 3 })));
  const [drawn] = seededValues(arbitrary, seedOf(ctx), 100 + CHECK_KINDS.indexOf(check), 1, () => true);
  if (!drawn) return undefined;
  const [frequency, offset] = drawn.value as [number, number];
  return { name: `f${frequency}:seeded:1`, frequency, offset };
}
