/**
 * The burst (RL-1, RL-2): requests sent as fast as a few keep-alive connections allow (undici, bounded
 * concurrency; Playwright's request fixture is several times slower) to one GET operation until the
 * limiter answers, and the decision from what came back.
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
import { Pool } from 'undici';
import type { ClauseId } from './clauses';
import { conform } from './conformance';
import { checkErrorResponse } from './error-checks';
import type { Exchange } from './exchange';
import { recordRequest, requestsSince } from './request-ledger';
import { errorBodies, zodLine } from './rules';
import type { SchemaValidator } from './schema-validator';
import type { Spec, SpecOperation } from './spec';
import type { Verdict } from './verdict';

export const BURST_CONCURRENCY = 16;
/** Requests sent one by one after the first refusal: beyond the limit, every one must be refused too. */
const CONFIRMATIONS = 3;
const MAX_ATTEMPTS = 4;
const BURST_DEADLINE_MS = 30_000;

export interface BurstTarget {
  /** scheme://host:port */
  origin: string;
  /** Path and query, already encoded. */
  path: string;
  headers: Record<string, string>;
  /** What the request ledger records these requests under (the API key, or ownLimitTag of it). */
  ledgerKey?: string;
}

export interface Reply {
  /** Send order, from 0. */
  i: number;
  sentAt: number;
  at: number;
  /** 0 when the request got no response. */
  status: number;
  /** The content type and the rate-limit headers only. */
  headers: Record<string, string>;
  /** Kept for refusals only. */
  body?: string;
  error?: string;
}

export interface BurstOptions {
  concurrency?: number;
  maxRequests: number;
  deadlineMs?: number;
  /** Stop sending at the first reply that is not served; replies already in flight still count. */
  stopOnRefusal?: boolean;
  /** After stopping on a refusal, this many more requests one by one. */
  confirmations?: number;
}

export interface BurstRun {
  replies: Reply[];
  confirmations: Reply[];
  startedAt: number;
  endedAt: number;
}

export const isServed = (status: number) => status >= 200 && status < 300;

const KEPT_HEADER = /^(content-type|retry-after|x-ratelimit-.+|ratelimit(-.+)?|x-rate-limit-.+)$/i;

function keptHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined && KEPT_HEADER.test(k)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export async function burst(target: BurstTarget, options: BurstOptions): Promise<BurstRun> {
  const concurrency = Math.max(1, Math.min(options.concurrency ?? BURST_CONCURRENCY, options.maxRequests));
  const pool = new Pool(target.origin, { connections: concurrency, pipelining: 1 });
  const replies: Reply[] = [];
  const confirmations: Reply[] = [];
  const startedAt = Date.now();
  const deadline = startedAt + (options.deadlineMs ?? BURST_DEADLINE_MS);
  let next = 0;
  let stopped = false;

  const send = async (i: number): Promise<Reply> => {
    const sentAt = Date.now();
    try {
      const res = await pool.request({ path: target.path, method: 'GET', headers: target.headers, headersTimeout: 15_000, bodyTimeout: 15_000 });
      const headers = keptHeaders(res.headers);
      let body: string | undefined;
      if (isServed(res.statusCode)) await res.body.dump();
      else body = await res.body.text();
      return { i, sentAt, at: Date.now(), status: res.statusCode, headers, body };
    } catch (e) {
      return { i, sentAt, at: Date.now(), status: 0, headers: {}, error: (e as Error).message };
    }
  };
  const lane = async () => {
    while (!stopped && next < options.maxRequests && Date.now() < deadline) {
      const reply = await send(next++);
      replies.push(reply);
      if (options.stopOnRefusal && !isServed(reply.status)) stopped = true;
    }
  };

  try {
    await Promise.all(Array.from({ length: concurrency }, lane));
    if (stopped && replies.some((r) => r.status !== 0)) {
      for (let k = 0; k < (options.confirmations ?? 0); k++) confirmations.push(await send(next++));
    }
  } finally {
    await pool.destroy();
  }
  // Written after the burst, not during it: the ledger is a file, and nobody reads it meanwhile.
  if (target.ledgerKey) for (const r of [...replies, ...confirmations]) recordRequest(target.ledgerKey, r.sentAt);
  return { replies, confirmations, startedAt, endedAt: Date.now() };
}

export function burstTarget(baseUrl: string, path: string, credentials: { apiKey: string; accountId: string; accountHeader: string }, ledgerKey = credentials.apiKey): BurstTarget {
  const url = new URL(`${baseUrl}${path}`);
  return {
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    headers: { authorization: `Bearer ${credentials.apiKey}`, [credentials.accountHeader]: credentials.accountId, accept: 'application/json' },
    ledgerKey,
  };
}

// ─── The suite's earlier requests ────────────────────────────────────────────────────────────────

export interface Limit {
  max: number;
  windowSeconds: number;
}

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
  const servedAgain = run.confirmations.filter((r) => isServed(r.status)).length;
  let resetSign = servedAgain ? `${servedAgain} of ${run.confirmations.length} requests sent after the first 429 were served again` : undefined;
  if (total > limit.max) {
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

// ─── Rate-limit headers (RL-6) ───────────────────────────────────────────────────────────────────

export interface LimitHeaders {
  limit?: number;
  remaining?: number;
  /** Seconds from the response until the window resets (reset headers in seconds or epoch time). */
  reset?: number;
  /** Retry-After in seconds (a date becomes seconds from the response). */
  retryAfter?: number;
  /** Names of the rate-limit headers present. */
  names: string[];
  /** Values that are not what their header calls for. */
  problems: string[];
}

const FIRST_INT = /^\s*(-?\d+(?:\.\d+)?)/;

/** Reads X-RateLimit-*, RateLimit-* (drafts 6-7), RateLimit/RateLimit-Policy (draft 8+) and Retry-After. */
export function readLimitHeaders(headers: Record<string, string>, receivedAt = Date.now()): LimitHeaders {
  const h = (name: string) => headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const names = Object.keys(headers).filter((k) => KEPT_HEADER.test(k) && k.toLowerCase() !== 'content-type');
  const problems: string[] = [];
  const structured = h('ratelimit') ?? '';
  const field = (keys: string[], source = structured) => new RegExp(`(?:^|[;,\\s])(?:${keys.join('|')})=(\\d+)`, 'i').exec(source)?.[1];
  const number = (name: string, value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const m = FIRST_INT.exec(value);
    if (!m) problems.push(`${name} "${value}" is not a number`);
    return m ? Number(m[1]) : undefined;
  };
  const pick = (names: string[]) => names.map((n) => [n, h(n)] as const).find(([, v]) => v !== undefined);
  const [limitName, limitValue] = pick(['x-ratelimit-limit', 'ratelimit-limit', 'x-rate-limit-limit']) ?? ['ratelimit', field(['limit', 'l']) ?? field(['q'], h('ratelimit-policy') ?? '')];
  const [remainingName, remainingValue] = pick(['x-ratelimit-remaining', 'ratelimit-remaining', 'x-rate-limit-remaining']) ?? ['ratelimit', field(['remaining', 'r'])];
  const [resetName, resetValue] = pick(['x-ratelimit-reset', 'ratelimit-reset', 'x-rate-limit-reset']) ?? ['ratelimit', field(['reset', 't'])];
  let reset = number(resetName, resetValue);
  // Epoch seconds or milliseconds instead of seconds from now.
  if (reset !== undefined && reset > 1e12) reset = (reset - receivedAt) / 1000;
  else if (reset !== undefined && reset > 1e9) reset = reset - receivedAt / 1000;
  let retryAfter: number | undefined;
  const ra = h('retry-after');
  if (ra !== undefined) {
    if (/^\s*-?\d+(\.\d+)?\s*$/.test(ra)) retryAfter = Number(ra);
    else if (!Number.isNaN(Date.parse(ra))) retryAfter = (Date.parse(ra) - receivedAt) / 1000;
    else problems.push(`retry-after "${ra}" is neither a number of seconds nor an HTTP date`);
  }
  return { limit: number(limitName, limitValue), remaining: number(remainingName, remainingValue), reset, retryAfter, names, problems };
}

// ─── What the limiter answered: bodies (RL-3 / RL-4, ERR-2) ────────────────────────────────────────

/** A reply as an Exchange, so the suite's error checks and spec conformance apply to it. */
export function replyExchange(target: BurstTarget, r: Reply): Exchange {
  let json: unknown;
  try {
    json = r.body ? JSON.parse(r.body) : undefined;
  } catch {
    json = undefined;
  }
  const contentType = r.headers['content-type'] ?? '';
  return { method: 'GET', url: `${target.origin}${target.path}`, requestHeaders: target.headers, status: r.status, headers: r.headers, text: r.body ?? '', json, contentType, ms: r.at - r.sentAt };
}

/**
 * Every 429 must carry the ERR-2 body (`clause`: RL-3 for the global limit, RL-4 for a route's own).
 * Identical answers are checked once, so a thousand 429s make one line, not a thousand.
 */
export function checkRefusalBodies(verdict: Verdict, spec: Spec, validator: SchemaValidator, op: SpecOperation | undefined, target: BurstTarget, replies: Reply[], clause: ClauseId, sentKeys: string[]): void {
  const tooMany = replies.filter((r) => r.status === 429);
  const groups = new Map<string, Reply[]>();
  for (const r of tooMany) {
    const key = `${r.headers['content-type'] ?? ''}\n${(r.body ?? '').replace(/\d+/g, '#')}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const bad = tooMany.filter((r) => !errorBodies[429].safeParse(replyExchange(target, r).json).success);
  const sample = bad[0] && replyExchange(target, bad[0]);
  const parsed = sample && errorBodies[429].safeParse(sample.json);
  verdict.check(clause, bad.length === 0, `${bad.length} of ${tooMany.length} 429 answers lack the documented body${parsed && !parsed.success ? `: ${zodLine(parsed.error)}` : ''}`, sample?.json ?? sample?.text, '{ "statusCode": 429, "error": "Too Many Requests", "message"?: string, "attributes"?: object }');
  for (const [, [first]] of [...groups].slice(0, 5)) {
    const ex = replyExchange(target, first);
    checkErrorResponse(verdict, ex, sentKeys);
    conform(verdict, spec, validator, op, ex, 'invalid', clause);
  }
}
