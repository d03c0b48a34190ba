/**
 * The decision of the burst (RL-1, RL-2): from what the bursts got back, whether the limit holds.
 *
 * How the decision stays right whatever the window algorithm and whatever the suite sent before:
 * - The first measurement adds the suite's own earlier requests with the key (the request ledger, all
 *   workers) to what the burst got served. It is decisive only when that adds up to the limit exactly,
 *   with no sign of a window that turned over.
 * - Anything else (fewer, more, a request served again after a 429) may be a fixed window that reset in
 *   the middle, a ledger that does not match what the target counts, or a wrong limit. Rather than guess,
 *   the burst waits a whole window after its last request (clean for fixed and sliding windows alike)
 *   and measures again with nothing earlier to account for. A clean measurement that serves fewer than
 *   the limit is decisive; one that serves more must be seen twice, because a fixed window aligned to
 *   the clock may still turn over during one burst.
 * Requests, attempts and time are all bounded.
 */
import { burst, BURST_CONCURRENCY, BURST_DEADLINE_MS, CONFIRMATIONS, isServed, MAX_ATTEMPTS, type BurstRun, type BurstTarget, type Reply } from './burst';
import type { RateLimit } from '../run/config';
import { requestsSince } from '../http/request-ledger';

// ─── The suite's earlier requests ────────────────────────────────────────────────────────────────

export type Limit = RateLimit;

/** Requests of ours that the target counts in the window (counted), and ones it may or may not count. */
export interface Prior {
  counted: number;
  uncertain: number;
}

/** The ledger key for requests to a route with its own limit: a target may or may not count them globally. */
export const ownLimitTag = (apiKey: string) => `${apiKey}#own-limit`;

/**
 * From the ledger: bearer requests with the key since `since`; uncertain are those that carried the key
 * in another scheme (the auth tests send them; a limiter may key on them or not) and those sent to routes
 * with their own limit.
 */
export function ledgerPrior(apiKey: string, since: number): Prior {
  const variants = [`Token ${apiKey}`, `Basic ${apiKey}`, `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`, ownLimitTag(apiKey)];
  return { counted: requestsSince(apiKey, since), uncertain: variants.reduce((n, k) => n + requestsSince(k, since), 0) };
}

// ─── One measurement and the decision ────────────────────────────────────────────────────────────

export type Shape = 'exact' | 'fewer' | 'more' | 'none' | 'wrong-status' | 'broken';

export interface Measurement {
  attempt: number;
  /** Sent after a whole window without requests of ours: nothing earlier counts. */
  clean: boolean;
  prior: Prior;
  sent: number;
  served: number;
  /** Replies with a status that is not 2xx (the limiter's answers), confirmations included. */
  refusals: Reply[];
  replies: Reply[];
  confirmations: Reply[];
  errors: string[];
  durationMs: number;
  bound: number;
  shape: Shape;
  /** Why the numbers may span two windows. */
  resetSign?: string;
}

export type Outcome =
  | { kind: 'holds'; limit: number }
  | { kind: 'too-low'; served: number }
  | { kind: 'too-high'; served: number[] }
  | { kind: 'no-limit'; sent: number; ms: number }
  | { kind: 'wrong-status'; status: number; served: number }
  | { kind: 'inconclusive'; why: string };

export interface LimitReport {
  outcome: Outcome;
  measurements: Measurement[];
  /** Every request sent, confirmations included. */
  requests: number;
  /** One line per attempt, for the report. */
  story: string[];
}

/** Requests a burst may send before it concludes that there is no limit (a correct one refuses sooner). */
export const burstBound = (limit: Limit, concurrency: number) => 2 * limit.max + 2 * concurrency + 10;

export function classify(limit: Limit, prior: Prior, run: BurstRun, bound: number): Pick<Measurement, 'shape' | 'resetSign' | 'served' | 'refusals' | 'errors'> {
  const all = [...run.replies, ...run.confirmations];
  const served = run.replies.filter((r) => isServed(r.status)).length;
  const refusals = all.filter((r) => r.status !== 0 && !isServed(r.status));
  const errors = all.filter((r) => r.status === 0).map((r) => r.error ?? 'no response');
  const base = { served, refusals, errors };
  if (!run.replies.some((r) => r.status !== 0 && !isServed(r.status))) {
    return { ...base, shape: !errors.length && run.replies.length >= bound ? 'none' : 'broken' };
  }
  if (refusals.some((r) => r.status !== 429)) return { ...base, shape: 'wrong-status' };
  const total = served + prior.counted;
  // A token bucket (or GCRA) refills while the burst runs: one request per window/max is its due.
  const perRequestMs = (limit.windowSeconds * 1000) / limit.max;
  const firstRefusal = Math.min(...refusals.map((r) => r.at));
  const startedAt = Math.min(...run.replies.map((r) => r.sentAt));
  // At most 1% of the limit, so that a limit set too high is still told apart from a refill.
  const refill = Math.min(Math.floor((firstRefusal - startedAt) / perRequestMs), Math.ceil(limit.max / 100));
  const servedAgain = run.confirmations.filter((r) => isServed(r.status) && r.sentAt - firstRefusal < perRequestMs).length;
  let resetSign = servedAgain ? `${servedAgain} of ${run.confirmations.length} requests sent after the first 429 were served again` : undefined;
  if (total > limit.max + refill) {
    resetSign ??= `${served} served${prior.counted ? ` on top of ${prior.counted} earlier` : ''}: more than the limit of ${limit.max}`;
    return { ...base, shape: 'more', resetSign };
  }
  if (total < limit.max - prior.uncertain) return { ...base, shape: 'fewer', resetSign };
  return { ...base, shape: 'exact', resetSign };
}

/** The outcome the measurements so far support, or undefined when another (clean) measurement is needed. */
export function decide(measurements: Measurement[], limit: Limit): Outcome | undefined {
  const m = measurements[measurements.length - 1];
  switch (m.shape) {
    case 'none':
      // Within less than a window, a correct limiter serves at most twice its limit, whatever its algorithm.
      return m.durationMs < limit.windowSeconds * 1000 ? { kind: 'no-limit', sent: m.sent, ms: m.durationMs } : undefined;
    case 'wrong-status':
      return { kind: 'wrong-status', status: m.refusals.find((r) => r.status !== 429)!.status, served: m.served };
    case 'exact':
      return m.resetSign ? undefined : { kind: 'holds', limit: limit.max };
    case 'fewer':
      return m.clean ? { kind: 'too-low', served: m.served } : undefined;
    case 'more': {
      const cleanMore = measurements.filter((x) => x.clean && x.shape === 'more');
      return m.clean && cleanMore.length >= 2 ? { kind: 'too-high', served: cleanMore.map((x) => x.served) } : undefined;
    }
    default:
      return undefined;
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** Margin added to a window before the next clean measurement: clocks and rounding. */
export const windowMargin = (windowMs: number) => 250 + Math.ceil(windowMs * 0.02);

export interface MeasureOptions {
  target: BurstTarget;
  limit: Limit;
  /** Requests of ours the target may count in a window starting at `since` (default: nothing). */
  prior?: (since: number) => Prior;
  concurrency?: number;
  maxAttempts?: number;
}

/** The longest measureLimit can take, for test timeouts. */
export const measureBudgetMs = (limit: Limit, maxAttempts = MAX_ATTEMPTS) =>
  maxAttempts * (limit.windowSeconds * 1000 + windowMargin(limit.windowSeconds * 1000) + BURST_DEADLINE_MS / 3);

export async function measureLimit(options: MeasureOptions): Promise<LimitReport> {
  const { limit, target } = options;
  const windowMs = limit.windowSeconds * 1000;
  const concurrency = options.concurrency ?? BURST_CONCURRENCY;
  const bound = burstBound(limit, concurrency);
  const measurements: Measurement[] = [];
  const story: string[] = [];
  let requests = 0;
  let lastRequestAt = 0;
  for (let attempt = 1; attempt <= (options.maxAttempts ?? MAX_ATTEMPTS); attempt++) {
    const waited = attempt > 1;
    if (waited) await sleep(lastRequestAt + windowMs + windowMargin(windowMs) - Date.now());
    const startedAt = Date.now();
    const prior = options.prior?.(startedAt - windowMs) ?? { counted: 0, uncertain: 0 };
    const run = await burst(target, { concurrency, maxRequests: bound, stopOnRefusal: true, confirmations: CONFIRMATIONS });
    const sentTimes = [...run.replies, ...run.confirmations].map((r) => r.sentAt);
    lastRequestAt = Math.max(lastRequestAt, ...sentTimes);
    requests += sentTimes.length;
    const m: Measurement = {
      attempt,
      clean: waited && prior.counted + prior.uncertain === 0,
      prior,
      sent: run.replies.length,
      replies: run.replies,
      confirmations: run.confirmations,
      durationMs: run.endedAt - run.startedAt,
      bound,
      ...classify(limit, prior, run, bound),
    };
    measurements.push(m);
    story.push(describeMeasurement(m, limit));
    const outcome = decide(measurements, limit);
    if (outcome) return { outcome, measurements, requests, story };
  }
  const shapes = measurements.map((m) => m.shape).join(', ');
  return { outcome: { kind: 'inconclusive', why: `${measurements.length} measurements did not agree (${shapes})` }, measurements, requests, story };
}

export function describeMeasurement(m: Measurement, limit: Limit): string {
  const when = m.attempt === 1 ? 'first burst' : `burst ${m.attempt}, ${m.clean ? 'after a whole window without requests' : 'after waiting a window'}`;
  const earlier = m.prior.counted || m.prior.uncertain ? `${m.prior.counted} earlier request(s) of the suite in the window${m.prior.uncertain ? ` (+${m.prior.uncertain} it may count)` : ''}, ` : '';
  const statuses = [...new Set(m.refusals.map((r) => r.status))].join('/') || 'none';
  const served = m.confirmations.filter((r) => isServed(r.status)).length;
  return (
    `${when}: ${earlier}${m.served} served of ${m.sent} sent in ${m.durationMs} ms, refusals: ${statuses}` +
    `${m.confirmations.length ? `; ${m.confirmations.length - served} of ${m.confirmations.length} later requests refused` : ''}` +
    `${m.errors.length ? `; ${m.errors.length} without a response (${m.errors[0]})` : ''} → ${m.shape} (limit ${limit.max} / ${limit.windowSeconds} s)` +
    `${m.resetSign && m.shape !== 'more' ? `; ${m.resetSign}` : ''}`
  );
}

/** Sends until the limit answers (bounded): leaves the key exhausted and returns what came back. */
export async function exhaust(target: BurstTarget, limit: Limit, concurrency = BURST_CONCURRENCY): Promise<BurstRun> {
  return burst(target, { concurrency, maxRequests: burstBound(limit, concurrency), stopOnRefusal: true });
}
