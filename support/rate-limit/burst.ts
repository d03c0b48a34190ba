/**
 * The burst itself: requests sent as fast as a few keep-alive connections allow (undici, bounded
 * concurrency; Playwright's request fixture is several times slower) to one GET operation until the
 * limiter answers. What the answers mean is decided in limit-measurement.ts.
 */
import { recordExchanges } from '../http/request-ledger';

/** Loaded when a burst starts: the runner imports this module to list the tests and sends nothing. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const undici = () => require('undici') as typeof import('undici');

export const BURST_CONCURRENCY = 16;
/** Requests sent one by one after the first refusal: beyond the limit, every one must be refused too. */
export const CONFIRMATIONS = 3;
export const MAX_ATTEMPTS = 4;
export const BURST_DEADLINE_MS = 30_000;

export interface BurstTarget {
  /** scheme://host:port */
  origin: string;
  /** Path and query, already encoded. */
  path: string;
  headers: Record<string, string>;
  /** false: the requests are not written to the request ledger (the bench is no contract run). */
  ledger?: boolean;
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

export const KEPT_HEADER = /^(content-type|retry-after|x-ratelimit-.+|ratelimit(-.+)?|x-rate-limit-.+)$/i;

function keptHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined && KEPT_HEADER.test(k)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export async function burst(target: BurstTarget, options: BurstOptions): Promise<BurstRun> {
  const concurrency = Math.max(1, Math.min(options.concurrency ?? BURST_CONCURRENCY, options.maxRequests));
  const pool = new (undici().Pool)(target.origin, { connections: concurrency, pipelining: 1 });
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
      // A dropped connection is no answer from the limiter: only a real refusal stops the burst.
      if (options.stopOnRefusal && reply.status !== 0 && !isServed(reply.status)) stopped = true;
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
  // Written after the burst, not during it: appending to a file per request would slow it, and the
  // ledger is read only before a burst starts.
  if (target.ledger !== false) {
    const authorization = Object.entries(target.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
    const url = `${target.origin}${target.path}`;
    recordExchanges([...replies, ...confirmations].map((r) => ({ at: r.sentAt, authorization, method: 'GET', url, status: r.status })));
  }
  return { replies, confirmations, startedAt, endedAt: Date.now() };
}

export function burstTarget(baseUrl: string, path: string, credentials: { apiKey: string; accountId: string; accountHeader: string }): BurstTarget {
  const url = new URL(`${baseUrl}${path}`);
  return {
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    headers: { authorization: `Bearer ${credentials.apiKey}`, [credentials.accountHeader]: credentials.accountId, accept: 'application/json' },
  };
}

/** One request, sent like the burst's (same pool settings, recorded in the ledger). */
export async function sendOne(target: BurstTarget): Promise<Reply> {
  const run = await burst(target, { concurrency: 1, maxRequests: 1 });
  return run.replies[0];
}

export interface OneRequest {
  method: string;
  /** Path and query, already encoded, on the target's origin. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * One request of any method outside the client: the client paces itself by the key's budget, which the
 * burst has just spent on purpose, so requests that must meet the exhausted key go this way. Recorded.
 */
export async function sendRequest(origin: string, r: OneRequest): Promise<Reply> {
  const sentAt = Date.now();
  let reply: Reply;
  try {
    const res = await undici().request(`${origin}${r.path}`, {
      method: r.method as 'GET',
      headers: r.headers,
      body: r.body,
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
    });
    const body = await res.body.text();
    reply = { i: 0, sentAt, at: Date.now(), status: res.statusCode, headers: keptHeaders(res.headers), body };
  } catch (e) {
    reply = { i: 0, sentAt, at: Date.now(), status: 0, headers: {}, error: (e as Error).message };
  }
  const authorization = Object.entries(r.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  recordExchanges([{ at: sentAt, authorization, method: r.method, url: `${origin}${r.path}`, status: reply.status }]);
  return reply;
}
