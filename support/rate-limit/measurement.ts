/**
 * The decision of the burst (RL-1, RL-2). It is exact only in a window whose content the suite knows (a fresh one, or one the target's
 * consistent headers account for), since the document does not say how refusals count; anything else waits a whole window and measures again.
 * More served than the limit is wrong unless a refilling limiter explains it; all requests, attempts and time are bounded.
 */
import { noticeWait } from '../run/wait-notice';
import {
  burst,
  burstBound,
  BURST_CONCURRENCY,
  BURST_DEADLINE_MS,
  MAX_BURST_CONCURRENCY,
  isServed,
  sendOne,
  sleep,
  type BurstRun,
  type BurstTarget,
  type Reply,
} from './burst';
import { assess } from './assessment';
import { announcementOf, ROUNDING_MS } from './headers';
import { describePrior, type KnownPrior } from './known-prior';
import type { RateLimit } from '../run/config';

export type Limit = RateLimit;

/** Requests sent one by one after the first refusal: beyond the limit, every one must be refused too. */
const CONFIRMATIONS = 3;
export const MAX_ATTEMPTS = 4;

export type Shape = 'exact' | 'fewer' | 'more' | 'none' | 'wrong-status' | 'broken' | 'ambiguous';

export interface Measurement extends BurstRun {
  /** From 1; every one after the first is sent after a whole window in which the suite sent nothing at all (clean). */
  attempt: number;
  known: KnownPrior;
  /** What the window held before the burst, as the decision takes it, and where that figure came from. */
  base?: number;
  baseFrom?: 'fresh' | 'headers';
  served: number;
  /** Replies with a status that is not 2xx (the limiter's answers), confirmations included. */
  refusals: Reply[];
  errors: string[];
  bound: number;
  shape: Shape;
  /** Why the measurement decides nothing (shape 'ambiguous', a large 'more'). */
  why?: string;
  /** Requests the headers counted that the suite did not send, in a window it left quiet with a key nothing else uses. */
  phantom?: number;
  notes: string[];
}

export type Outcome =
  | { kind: 'holds'; limit: number; refilled?: number }
  | { kind: 'too-low'; served: number; base: number }
  | { kind: 'too-high'; served: number[]; base: number }
  | { kind: 'no-limit'; sent: number; ms: number }
  | { kind: 'wrong-status'; status: number; served: number }
  | { kind: 'inconclusive'; why: string };

export type LimitReport = Awaited<ReturnType<typeof measureLimit>>;

/** Margin added to a window before the next clean measurement, and to the window a request may still be in: clocks and rounding. */
export const windowMargin = (windowMs: number) => 250 + Math.ceil(windowMs * 0.02);

export interface MeasureOptions {
  target: BurstTarget;
  limit: Limit;
  /** What the suite sent with the burst's key that may be in a window starting at `since`. */
  known: (since: number) => KnownPrior;
  /** When the suite last sent anything (any key): a clean measurement starts a window after it. */
  lastActivity: () => number;
  /** The same route with another key: asked once when fewer were served, to see whether the limit is shared. */
  otherKey?: BurstTarget;
  /** The key is the suite's own burst key, so a window this run sent nothing in is fresh; not so for API_KEY (default: true). */
  exclusive?: boolean;
  concurrency?: number;
}

/** Waits until a whole window and its margin have passed since `since` (the last request), and returns the ms waited. */
export async function waitQuietWindow(since: number, windowMs: number, why = 'a rate-limit window without requests of the suite'): Promise<number> {
  const until = since + windowMs + windowMargin(windowMs);
  const waitedMs = Math.max(0, until - Date.now());
  noticeWait(waitedMs, why);
  await sleep(waitedMs);
  // A timer may fire a millisecond early by the wall clock: the window must start after the last request.
  while (Date.now() <= until) await sleep(1);
  return waitedMs;
}

/** The longest measureLimit can take, for test timeouts. */
export const measureBudgetMs = (limit: Limit) =>
  MAX_ATTEMPTS * (limit.windowSeconds * 1000 + windowMargin(limit.windowSeconds * 1000) + BURST_DEADLINE_MS / 3 + 2000);

/** `story`: one line per attempt and per wait, for the report; `waits`: why the burst waited a whole window (empty when it did not). */
export async function measureLimit(options: MeasureOptions) {
  const { limit, target } = options;
  const windowMs = limit.windowSeconds * 1000;
  const concurrency = options.concurrency ?? BURST_CONCURRENCY;
  // A burst of the default width grows with the round trip; one of a width asked for keeps it.
  const maxConcurrency = options.concurrency === undefined ? MAX_BURST_CONCURRENCY : concurrency;
  const bound = burstBound(limit, maxConcurrency);
  const measurements: Measurement[] = [];
  const story: string[] = [];
  // Every request sent, confirmations and probes included.
  let requests = 0;
  let outcome: Outcome | undefined;
  for (let attempt = 1; !outcome && attempt <= MAX_ATTEMPTS; attempt++) {
    const previous = measurements[measurements.length - 1];
    if (previous) {
      // A whole window in which the suite sent nothing (the ledger holds every burst's requests): fresh for fixed and sliding windows, per key or per client alike.
      const why = previous.why ?? `the burst got ${previous.shape} answers`;
      const waitedMs = await waitQuietWindow(options.lastActivity(), windowMs, `a rate-limit window without requests of the suite, to measure again: ${why}`);
      story.push(`waited ${(waitedMs / 1000).toFixed(1)} s for a window without requests of the suite: ${why}`);
    }
    const known = options.known(Date.now() - windowMs - windowMargin(windowMs));
    const run = await burst(target, { concurrency, maxConcurrency, maxRequests: bound, stopOnRefusal: true, confirmations: CONFIRMATIONS });
    const all = [...run.replies, ...run.confirmations];
    const m: Measurement = {
      ...run,
      attempt,
      known,
      served: run.replies.filter((r) => isServed(r.status)).length,
      refusals: all.filter((r) => r.status !== 0 && !isServed(r.status)),
      errors: all.filter((r) => r.status === 0).map((r) => r.error ?? 'no response'),
      bound,
      shape: 'broken',
      notes: [],
    };
    const extra: Reply[] = [];
    outcome = await assess(m, measurements, options, extra);
    requests += all.length + extra.length;
    measurements.push(m);
    story.push(describeMeasurement(m, limit));
  }
  const shapes = measurements.map((m) => m.shape).join(', ');
  const { why } = measurements[measurements.length - 1];
  outcome ??= { kind: 'inconclusive', why: `${measurements.length} measurements did not agree (${shapes})${why ? `; ${why}` : ''}` };
  const heeded = await heedShortPromise(target, measurements[measurements.length - 1], limit);
  if (heeded) {
    requests += 1;
    story.push(
      `heeded the last 429's promise of ${heeded.seconds} s: the request sent after it was ${isServed(heeded.reply.status) ? 'served' : `answered ${heeded.reply.status}`}`,
    );
  }
  return { outcome, measurements, requests, story, waits: story.filter((line) => line.startsWith('waited ')), heeded: heeded?.reply };
}

/**
 * The longest wait a 429 may promise that the burst takes at its word (a quarter of the window at most): one request, sent once the
 * promise is due. A limiter whose Retry-After or reset counts the wrong way promises a short wait it does not keep; one that keeps it
 * costs a few seconds, and a correct window of a minute, freshly filled, promises far more and is not waited for.
 */
const SHORT_PROMISE_S = 5;

async function heedShortPromise(target: BurstTarget, m: Measurement, limit: Limit) {
  const latest = [...m.replies, ...m.confirmations].filter((r) => r.status === 429).sort((a, b) => b.at - a.at)[0];
  const promise = latest && announcementOf(latest);
  if (!promise || !(promise.seconds > 0) || promise.seconds > Math.min(SHORT_PROMISE_S, limit.windowSeconds / 4)) return undefined;
  const waitMs = promise.endsAt + ROUNDING_MS + 100 - Date.now();
  noticeWait(waitMs, `the last 429 announced ${promise.seconds} s until the key is served again: asking once after that`);
  await sleep(waitMs);
  return { seconds: promise.seconds, reply: await sendOne(target) };
}

function describeMeasurement(m: Measurement, limit: Limit): string {
  const when = m.attempt === 1 ? 'first burst' : `burst ${m.attempt}, after a window without requests`;
  const window =
    m.baseFrom === 'fresh'
      ? 'fresh window'
      : m.baseFrom === 'headers'
        ? `window holding ${m.base} counted request(s) of the suite (by its headers)`
        : describePrior(m.known);
  const statuses = [...new Set(m.refusals.map((r) => r.status))].join('/') || 'none';
  const refused = m.confirmations.filter((r) => !isServed(r.status)).length;
  return (
    `${when} (${window}): ${m.served} served of ${m.replies.length} sent in ${m.durationMs} ms, refusals: ${statuses}` +
    `${m.confirmations.length ? `; ${refused} of ${m.confirmations.length} later requests refused` : ''}` +
    `${m.errors.length ? `; ${m.errors.length} without a response (${m.errors[0]})` : ''}` +
    ` → ${m.shape} (limit ${limit.max} / ${limit.windowSeconds} s)${m.why ? `: ${m.why}` : ''}${m.notes.length ? `; ${m.notes.join('; ')}` : ''}`
  );
}

/** Sends until the limit answers (bounded): leaves the key exhausted and returns what came back. */
export const exhaust = (target: BurstTarget, limit: Limit): Promise<BurstRun> =>
  burst(target, { maxRequests: burstBound(limit, BURST_CONCURRENCY), stopOnRefusal: true });
