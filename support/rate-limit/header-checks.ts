/**
 * RL-6: rate-limit headers, where the target sends them, must agree with the window and with what the
 * target does, each value in the unit its family defines:
 * - Retry-After: seconds (or an HTTP date); on a 429, more than 0 (the requests sent right after were
 *   refused) and no longer than a window;
 * - RateLimit-Reset (IETF drafts): seconds until the reset, at most a window;
 * - X-RateLimit-Reset: epoch seconds or seconds until the reset, whichever the value unambiguously is;
 * - remaining: falls by one per counted request (a refilling bucket may leave it unchanged), so in a
 *   fresh window the first request leaves limit - 1 and the last one served leaves 0; 0 on a 429;
 * - limit: the configured limit (or the route's own).
 * Each problem is one line; identical ones are counted, not repeated.
 */
import { isServed, type BurstTarget, type Reply } from './burst';
import { readLimitHeaders, type LimitHeaders } from './headers';
import type { Limit, LimitReport } from './measurement-types';
import { burstExchange } from './refusal-checks';
import type { Verdict } from '../checks/verdict';

export class HeaderProblems {
  private readonly seen = new Map<string, { count: number; reply?: Reply }>();

  add(problem: string, reply?: Reply): void {
    const entry = this.seen.get(problem) ?? { count: 0, reply };
    entry.count++;
    this.seen.set(problem, entry);
  }

  get lines(): string[] {
    return [...this.seen].map(([p, { count }]) => (count > 1 ? `${p} (×${count})` : p));
  }

  /** The first reply behind the first problem, for the report's request line. */
  get sample(): Reply | undefined {
    return [...this.seen.values()][0]?.reply;
  }
}

/** The unit and range of each value one response gives (no comparison with other responses). */
export function checkValues(h: LimitHeaders, status: number, limit: Limit, out: HeaderProblems, reply?: Reply): void {
  const windowS = limit.windowSeconds;
  for (const p of h.problems) out.add(p, reply);
  if (h.limit !== undefined && h.limit !== limit.max) out.add(`the limit header says ${h.limit}, the limit is ${limit.max}`, reply);
  if (h.remaining !== undefined && !(Number.isInteger(h.remaining) && h.remaining >= 0)) out.add(`remaining ${h.remaining} is not a whole number >= 0`, reply);
  // A served request is counted: it leaves at most limit - 1 (the limit it names; a wrong one is its own line).
  const own = h.limit ?? limit.max;
  if (h.remaining !== undefined && isServed(status) && h.remaining > own - 1)
    out.add(`a served request says ${h.remaining} remain, more than limit - 1 (${own - 1})`, reply);
  if (status === 429 && h.remaining !== undefined && h.remaining !== 0) out.add(`a 429 says ${h.remaining} requests remain`, reply);
  if (h.reset !== undefined) {
    const header = h.resetHeader ?? 'reset';
    if (/^ratelimit/i.test(header) && h.resetUnit !== 'seconds-until')
      out.add(`${header} ${h.resetRaw} is an epoch time; the IETF drafts define seconds until the reset`, reply);
    else if (!(h.reset >= -1 && h.reset <= windowS + 1))
      out.add(`${header} ${h.resetRaw} (${h.resetUnit}) puts the reset ${Math.round(h.reset)} s away; the window is ${windowS} s`, reply);
  }
  if (status === 429 && h.retryAfter !== undefined) {
    if (!(h.retryAfter > 0)) out.add(`Retry-After ${h.retryAfter} on a 429, but requests sent right after it were refused`, reply);
    else if (h.retryAfter > windowS + 1) out.add(`Retry-After ${h.retryAfter} s on a 429 is longer than the ${windowS} s window`, reply);
  }
}

export interface BurstHeaderContext {
  limit: Limit;
  /** The window held none of the suite's requests with the key: the first served request leaves limit - 1. */
  fresh: boolean;
  /** Requests served beyond the limit by refills (a bucket may repeat a remaining value that often). */
  refilled: number;
  /** The burst reached the limit (a 429 after the served requests): the last one served leaves 0. */
  reachedLimit: boolean;
  /** Requests the burst got served. */
  served: number;
}

/** RL-6 over one burst: every reply's values, then remaining across the served replies. */
export function burstHeaderProblems(replies: Reply[], ctx: BurstHeaderContext): HeaderProblems {
  const out = new HeaderProblems();
  const read = replies.map((r) => ({ r, h: readLimitHeaders(r.headers, r.at) }));
  for (const { r, h } of read) checkValues(h, r.status, ctx.limit, out, r);
  const served = read.filter(({ r }) => isServed(r.status));
  const remaining = served.map(({ h }) => h.remaining).filter((n): n is number => n !== undefined);
  if (!remaining.length) return out;
  const sample = served[0].r;
  const repeats = remaining.length - new Set(remaining).size;
  if (repeats > ctx.refilled)
    out.add(`remaining repeated ${repeats} time(s) over ${remaining.length} served requests: it does not fall by one per counted request`, sample);
  const max = Math.max(...remaining);
  const min = Math.min(...remaining);
  // In a fresh window the first request leaves one less than the target served in all (its own limit).
  const first = ctx.served - ctx.refilled - 1;
  if (ctx.fresh && ctx.reachedLimit && max !== first)
    out.add(
      `the first request of a fresh window left ${max} remaining, but the target then served ${ctx.served - ctx.refilled} in all (so ${first} remained)`,
      sample,
    );
  if (ctx.reachedLimit && min !== 0) out.add(`the last request served before the 429 left ${min} remaining, not 0`, sample);
  return out;
}

/** RL-6 on the decisive burst: where the target sends rate-limit headers, they tell what it did. */
export function checkBurstHeaders(verdict: Verdict, report: LimitReport, limit: Limit, target: BurstTarget): void {
  const m = report.measurements[report.measurements.length - 1];
  const replies = [...m.replies, ...m.confirmations];
  if (!replies.some((r) => readLimitHeaders(r.headers).names.length)) {
    verdict.note('RL-6', 'the target sends no rate-limit headers (Retry-After, RateLimit-*, X-RateLimit-*): nothing to check');
    return;
  }
  const o = report.outcome;
  const decided = o.kind === 'holds' || o.kind === 'too-low' || o.kind === 'too-high';
  const refilled = o.kind === 'holds' ? (o.refilled ?? 0) : 0;
  const problems = burstHeaderProblems(replies, {
    limit,
    fresh: m.baseFrom === 'fresh',
    refilled,
    reachedLimit: decided && m.refusals.length > 0,
    served: m.served,
  });
  const sample = problems.sample;
  verdict.check(
    'RL-6',
    problems.lines.length === 0,
    `rate-limit headers disagree with the window or with what the target did: ${problems.lines.join('; ')}`,
    problems.lines,
    `limit = ${limit.max}; remaining falls by one per served request, from ${limit.max - 1} in a fresh window to 0 at the limit; reset within ${limit.windowSeconds} s (seconds until, or epoch seconds for X-RateLimit-Reset); Retry-After on a 429 from 1 to ${limit.windowSeconds} s`,
    sample && burstExchange(target, sample),
  );
}
