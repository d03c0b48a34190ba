/**
 * The burst itself: requests sent as fast as a few keep-alive connections allow (undici, bounded
 * concurrency; Playwright's request fixture is several times slower) to one GET operation until the
 * limiter answers. What the answers mean is decided in limit-measurement.ts.
 */
import { Pool } from 'undici';
import { recordRequest } from '../http/request-ledger';

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

export const KEPT_HEADER = /^(content-type|retry-after|x-ratelimit-.+|ratelimit(-.+)?|x-rate-limit-.+)$/i;

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
