/**
 * The decision of the burst (RL-1, RL-2): from what the bursts got back, whether the limit holds.
 *
 * The decision is exact only in a window whose content the suite knows, so it never rests on how the
 * target counts requests it refuses (the document does not say):
 * - a fresh window: the key carried no request of ours in it (a key nothing else uses, and no record of
 *   the last run using it). Then `served` alone is the limit: one fewer fails RL-1, one more RL-2;
 * - or a window the target accounts for itself: with one key the contract tests' requests share the
 *   window, and the target's own rate-limit headers, when they agree with what it does (remaining falls
 *   to 0 exactly at the first 429, the limit header names the configured limit, the count they imply is
 *   no more than the suite sent), say how much of it was used.
 * Anything else waits a whole window without requests of ours and measures again, and says why: the
 * key's window was shared and the target does not tell how it counts, a window turned over mid-burst,
 * connections dropped, the limit refused another key too (counted per client or account), the headers
 * say the window held requests the suite did not send (a run seconds before).
 *
 * More served than the limit is a wrong limit unless the target refills (a token bucket) and the excess
 * is what it refilled while the burst ran: probes sent just after the first 429 tell. A few more with no
 * refill decide at once; many more may be a fixed window that turned over mid-burst, and must be seen in
 * two fresh windows. Requests, attempts and time are all bounded.
 */
import { burst, BURST_CONCURRENCY, BURST_DEADLINE_MS, CONFIRMATIONS, isServed, MAX_ATTEMPTS, sendOne, type BurstRun, type BurstTarget, type Reply } from './burst';
import { readLimitHeaders } from './headers';
import { describePrior, NO_PRIOR, type KnownPrior } from './known-prior';
import type { RateLimit } from '../run/config';

export type Limit = RateLimit;

export type Shape = 'exact' | 'fewer' | 'more' | 'none' | 'wrong-status' | 'broken' | 'ambiguous';

/** What the served replies' headers say of the window before the burst. */
export interface HeaderCount {
  limit?: number;
  remainingMax: number;
  remainingMin: number;
  /** Requests the target says it had counted before the burst: limit - (highest remaining) - 1. */
  counted?: number;
  /** Remaining fell by one per served request, to 0 at the last: the headers agree with what the target did. */
  consistent: boolean;
}

export interface Refill {
  probes: number;
  served: number;
  /** Tokens a bucket refilling at limit/window would have added while the burst was served. */
  allowance: number;
}

export interface Measurement {
  attempt: number;
  /** Sent after a whole window in which the suite sent nothing at all. */
  clean: boolean;
  known: KnownPrior;
  /** What the window held before the burst, as the decision takes it, and where that figure came from. */
  base?: number;
  baseFrom?: 'fresh' | 'headers';
  sent: number;
  served: number;
  /** Replies with a status that is not 2xx (the limiter's answers), confirmations included. */
  refusals: Reply[];
  replies: Reply[];
  confirmations: Reply[];
  errors: string[];
  durationMs: number;
  bound: number;
  headers?: HeaderCount;
  refill?: Refill;
  /** The limit also refused another key right after the burst. */
  sharedWith?: 'shared' | 'separate';
  shape: Shape;
  /** Why the measurement decides nothing (shape 'ambiguous', a large 'more'). */
  why?: string;
  notes: string[];
}

export type Outcome =
  | { kind: 'holds'; limit: number; refilled?: number }
  | { kind: 'too-low'; served: number; base: number }
  | { kind: 'too-high'; served: number[]; base: number }
  | { kind: 'no-limit'; sent: number; ms: number }
  | { kind: 'wrong-status'; status: number; served: number }
  | { kind: 'inconclusive'; why: string };

export interface LimitReport {
  outcome: Outcome;
  measurements: Measurement[];
  /** Every request sent, confirmations and probes included. */
  requests: number;
  /** One line per attempt and per wait, for the report. */
  story: string[];
  /** Why the burst waited a whole window, one line per wait (empty when it did not). */
  waits: string[];
}

/** Requests a burst may send before it concludes that there is no limit (a correct one refuses sooner). */
export const burstBound = (limit: Limit, concurrency: number) => 2 * limit.max + 2 * concurrency + 10;

/** A few more than the limit, with no refill after the 429: a wrong limit (a window that turned over mid-burst serves many more). */
export const smallExcess = (limit: Limit) => Math.max(1, Math.ceil(limit.max / 100));

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** Margin added to a window before the next clean measurement, and to the window a request may still be in: clocks and rounding. */
export const windowMargin = (windowMs: number) => 250 + Math.ceil(windowMs * 0.02);

/** From the served replies' remaining headers (undefined when they carry none). */
export function headerCount(replies: Reply[]): HeaderCount | undefined {
  const served = replies.filter((r) => isServed(r.status)).map((r) => readLimitHeaders(r.headers, r.at));
  const remaining = served.map((h) => h.remaining).filter((n): n is number => n !== undefined);
  if (!remaining.length || remaining.length !== served.length) return undefined;
  const limit = served.find((h) => h.limit !== undefined)?.limit;
  const remainingMax = Math.max(...remaining);
  const remainingMin = Math.min(...remaining);
  const consistent = remainingMin === 0 && remainingMax + 1 === served.length && new Set(remaining).size === served.length;
  return { limit, remainingMax, remainingMin, counted: limit === undefined ? undefined : limit - remainingMax - 1, consistent };
}

/** none / broken / wrong-status, or undefined when the limiter answered with 429s. */
function failedShape(run: BurstRun, bound: number, errors: string[]): Shape | undefined {
  const answered = run.replies.filter((r) => r.status !== 0 && !isServed(r.status));
  if (!answered.length) return !errors.length && run.replies.length >= bound ? 'none' : 'broken';
  if ([...answered, ...run.confirmations].some((r) => r.status !== 0 && !isServed(r.status) && r.status !== 429)) return 'wrong-status';
  return undefined;
}

export interface MeasureOptions {
  target: BurstTarget;
  limit: Limit;
  /** What the suite sent with the burst's key that may be in a window starting at `since` (default: nothing). */
  known?: (since: number) => KnownPrior;
  /** When the suite last sent anything (any key): a clean measurement starts a window after it. */
  lastActivity?: () => number;
  /** The same route with another key: asked once when fewer were served, to see whether the limit is shared. */
  otherKey?: BurstTarget;
  /**
   * The key is the suite's own burst key, which other runs and shards do not use either: a window in
   * which this run sent nothing with it is fresh. Not so for the only key (API_KEY): fewer served than
   * the limit may then be another run's doing, and only a window of silence tells (default: true).
   */
  exclusive?: boolean;
  concurrency?: number;
  maxAttempts?: number;
}

/** The longest measureLimit can take, for test timeouts. */
export const measureBudgetMs = (limit: Limit, maxAttempts = MAX_ATTEMPTS) =>
  maxAttempts * (limit.windowSeconds * 1000 + windowMargin(limit.windowSeconds * 1000) + BURST_DEADLINE_MS / 3 + 2000);

/** After the first 429: a refilling limiter serves again within a few of its periods; a window does not. */
async function probeRefill(target: BurstTarget, limit: Limit, run: BurstRun, firstRefusalAt: number): Promise<Refill & { replies: Reply[] }> {
  const periodMs = (limit.windowSeconds * 1000) / limit.max;
  const spanMs = Math.min(2000, Math.max(100, 3 * periodMs));
  const stepMs = Math.max(10, spanMs / 6);
  const replies: Reply[] = [];
  while (Date.now() < firstRefusalAt + spanMs) {
    await sleep(stepMs);
    const r = await sendOne(target);
    replies.push(r);
    if (isServed(r.status)) break;
  }
  const served = run.replies.filter((r) => isServed(r.status));
  const first = Math.min(...run.replies.map((r) => r.sentAt));
  const last = Math.max(...served.map((r) => r.sentAt), first);
  return { probes: replies.length, served: replies.filter((r) => isServed(r.status)).length, allowance: Math.floor((last - first) / periodMs) + 1, replies };
}

async function assess(m: Measurement, run: BurstRun, options: MeasureOptions): Promise<Reply[]> {
  const { limit } = options;
  const extra: Reply[] = [];
  const failed = failedShape(run, m.bound, m.errors);
  if (failed) {
    m.shape = failed;
    return extra;
  }
  const hc = (m.headers = headerCount(run.replies));
  const trusted = hc && hc.consistent && hc.limit === limit.max && hc.counted !== undefined;
  if (m.known.count === 0) {
    m.base = 0;
    m.baseFrom = 'fresh';
  } else if (trusted && hc.counted! >= 0 && hc.counted! <= m.known.count) {
    m.base = hc.counted;
    m.baseFrom = 'headers';
    m.notes.push(`the target's headers say ${hc.counted} of the suite's ${m.known.count} earlier request(s) with the key counted`);
  } else {
    m.shape = 'ambiguous';
    const headers = !hc
      ? m.served === 0
        ? 'not one request of the burst was served, so no headers tell'
        : 'it sends no remaining/limit headers that would tell'
      : !trusted
        ? `its headers do not settle it (${hc.consistent ? `limit header ${hc.limit ?? 'absent'}, configured ${limit.max}` : 'remaining did not fall by one per served request to 0'})`
        : `its headers say ${hc.counted} counted, more than the suite sent`;
    m.why = `the key's window was not fresh: ${describePrior(m.known)}; whether the target counts them is not documented, and ${headers}`;
    return extra;
  }
  const total = m.served + m.base!;
  const firstRefusalAt = Math.min(...m.refusals.map((r) => r.at));
  const servedAgain = run.confirmations.filter((r) => isServed(r.status)).length;
  if (servedAgain) m.notes.push(`${servedAgain} of ${run.confirmations.length} requests sent one by one after the first 429 were served again`);
  if (m.errors.length && total <= limit.max && limit.max <= total + m.errors.length) {
    m.shape = 'ambiguous';
    m.why = `${m.errors.length} request(s) got no response (${m.errors[0]}): the target may or may not have counted them`;
    return extra;
  }
  if (total === limit.max) {
    m.shape = 'exact';
    return extra;
  }
  if (total < limit.max) {
    // The headers say the window held requests the suite did not send: a run seconds before, another client.
    if (m.baseFrom === 'fresh' && hc?.consistent && hc.counted !== undefined && hc.counted > 0 && hc.limit === limit.max) {
      m.shape = 'ambiguous';
      m.why = `the target's headers say ${hc.counted} request(s) had been counted before the burst, none of them the suite's in this window: not a fresh window (a run shortly before?)`;
      return extra;
    }
    if (!m.clean && m.baseFrom === 'fresh' && options.exclusive === false) {
      m.shape = 'ambiguous';
      m.why = 'the only key may have been used within the window by another run or shard (this run sent nothing with it before the burst), and no headers say so';
      return extra;
    }
    if (!m.clean && options.otherKey) {
      const other = await sendOne(options.otherKey);
      extra.push(other);
      m.sharedWith = other.status === 429 ? 'shared' : 'separate';
      if (m.sharedWith === 'shared') {
        m.shape = 'ambiguous';
        m.why = `another key was refused too right after the burst: the limit seems counted per client address or per account, so the window held the suite's other requests`;
        return extra;
      }
    }
    m.shape = 'fewer';
    return extra;
  }
  // More than the limit: a refilling bucket serves again within a few of its periods after its 429, a window does not.
  const excess = total - limit.max;
  const refill = await probeRefill(options.target, limit, run, firstRefusalAt);
  extra.push(...refill.replies);
  m.refill = { probes: refill.probes, served: refill.served, allowance: refill.allowance };
  if (refill.served && m.known.count > 0) {
    m.shape = 'ambiguous';
    m.why = `${excess} more than the limit, then served again soon after the 429: a refilling limiter, or the suite's earlier requests leaving a sliding window`;
    return extra;
  }
  if (refill.served && excess <= refill.allowance) {
    m.shape = 'exact';
    m.notes.push(`${excess} more than the limit were served while the burst ran, and the limiter served again soon after its 429: a refilling bucket (up to ${refill.allowance} tokens in that time)`);
    return extra;
  }
  m.shape = 'more';
  // A few more with no refill is the limit; many more may be a window that turned over mid-burst.
  if (excess > smallExcess(limit) || refill.served) m.why = `${excess} more than the limit were served: a wrong limit, or a window that turned over mid-burst; seen in two fresh windows it is the limit`;
  return extra;
}

/** The outcome the measurements so far support, or undefined when another (clean) measurement is needed. */
export function decide(measurements: Measurement[], limit: Limit): Outcome | undefined {
  const m = measurements[measurements.length - 1];
  const base = m.base ?? 0;
  switch (m.shape) {
    case 'none':
      // Within less than a window, a correct limiter serves at most twice its limit, whatever its algorithm.
      return m.durationMs < limit.windowSeconds * 1000 ? { kind: 'no-limit', sent: m.sent, ms: m.durationMs } : undefined;
    case 'wrong-status':
      return { kind: 'wrong-status', status: m.refusals.find((r) => r.status !== 429)!.status, served: m.served };
    case 'exact':
      return { kind: 'holds', limit: limit.max, ...(m.served + base > limit.max ? { refilled: m.served + base - limit.max } : {}) };
    case 'fewer':
      return { kind: 'too-low', served: m.served, base };
    case 'more': {
      if (!m.why) return { kind: 'too-high', served: [m.served], base };
      const fresh = measurements.filter((x) => x.shape === 'more' && x.baseFrom === 'fresh');
      return fresh.length >= 2 ? { kind: 'too-high', served: fresh.map((x) => x.served), base: 0 } : undefined;
    }
    default:
      return undefined;
  }
}

export async function measureLimit(options: MeasureOptions): Promise<LimitReport> {
  const { limit, target } = options;
  const windowMs = limit.windowSeconds * 1000;
  const margin = windowMargin(windowMs);
  const concurrency = options.concurrency ?? BURST_CONCURRENCY;
  const bound = burstBound(limit, concurrency);
  const measurements: Measurement[] = [];
  const story: string[] = [];
  const waits: string[] = [];
  let requests = 0;
  let lastSent = 0;
  for (let attempt = 1; attempt <= (options.maxAttempts ?? MAX_ATTEMPTS); attempt++) {
    const previous = measurements[measurements.length - 1];
    if (previous) {
      // A whole window in which the suite sent nothing: fresh for fixed and sliding windows, per key or per client alike.
      const quietSince = Math.max(lastSent, options.lastActivity?.() ?? 0);
      const waitMs = quietSince + windowMs + margin - Date.now();
      const why = previous.why ?? `the burst got ${previous.shape} answers`;
      waits.push(`waited ${(Math.max(0, waitMs) / 1000).toFixed(1)} s for a window without requests of the suite: ${why}`);
      story.push(waits[waits.length - 1]);
      await sleep(waitMs);
    }
    const startedAt = Date.now();
    const known = options.known?.(startedAt - windowMs - margin) ?? NO_PRIOR;
    const run = await burst(target, { concurrency, maxRequests: bound, stopOnRefusal: true, confirmations: CONFIRMATIONS });
    const all = [...run.replies, ...run.confirmations];
    const m: Measurement = {
      attempt,
      clean: attempt > 1,
      known,
      sent: run.replies.length,
      served: run.replies.filter((r) => isServed(r.status)).length,
      refusals: all.filter((r) => r.status !== 0 && !isServed(r.status)),
      errors: all.filter((r) => r.status === 0).map((r) => r.error ?? 'no response'),
      replies: run.replies,
      confirmations: run.confirmations,
      durationMs: run.endedAt - run.startedAt,
      bound,
      shape: 'broken',
      notes: [],
    };
    const extra = await assess(m, run, options);
    for (const r of [...all, ...extra]) lastSent = Math.max(lastSent, r.sentAt);
    requests += all.length + extra.length;
    measurements.push(m);
    story.push(describeMeasurement(m, limit));
    const outcome = decide(measurements, limit);
    if (outcome) return { outcome, measurements, requests, story, waits };
  }
  const shapes = measurements.map((m) => m.shape).join(', ');
  const last = measurements[measurements.length - 1];
  return { outcome: { kind: 'inconclusive', why: `${measurements.length} measurements did not agree (${shapes})${last?.why ? `; ${last.why}` : ''}` }, measurements, requests, story, waits };
}

export function describeMeasurement(m: Measurement, limit: Limit): string {
  const when = m.attempt === 1 ? 'first burst' : `burst ${m.attempt}, after a window without requests`;
  const window = m.baseFrom === 'fresh' ? 'fresh window' : m.baseFrom === 'headers' ? `window holding ${m.base} counted request(s) of the suite (by its headers)` : describePrior(m.known);
  const statuses = [...new Set(m.refusals.map((r) => r.status))].join('/') || 'none';
  const refused = m.confirmations.filter((r) => !isServed(r.status)).length;
  return (
    `${when} (${window}): ${m.served} served of ${m.sent} sent in ${m.durationMs} ms, refusals: ${statuses}` +
    `${m.confirmations.length ? `; ${refused} of ${m.confirmations.length} later requests refused` : ''}` +
    `${m.errors.length ? `; ${m.errors.length} without a response (${m.errors[0]})` : ''}` +
    `${m.refill ? `; ${m.refill.served} of ${m.refill.probes} refill probe(s) served` : ''}` +
    `${m.sharedWith ? `; another key ${m.sharedWith === 'shared' ? 'refused too' : 'still served'}` : ''}` +
    ` → ${m.shape} (limit ${limit.max} / ${limit.windowSeconds} s)${m.why ? `: ${m.why}` : ''}${m.notes.length ? `; ${m.notes.join('; ')}` : ''}`
  );
}

/** Sends until the limit answers (bounded): leaves the key exhausted and returns what came back. */
export async function exhaust(target: BurstTarget, limit: Limit, concurrency = BURST_CONCURRENCY): Promise<BurstRun> {
  return burst(target, { concurrency, maxRequests: burstBound(limit, concurrency), stopOnRefusal: true });
}
