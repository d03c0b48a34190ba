/** The burst: GETs sent as fast as a few keep-alive connections of its own allow (Playwright's request fixture is several times slower). */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { recordExchanges } from '../http/request-ledger';
import { headerValue, keepAliveConnections, withUserAgent, type Connections } from '../http/transport';
import type { RateLimit } from '../run/config';

const ANSWER_TIMEOUT_MS = 15_000;

export const BURST_CONCURRENCY = 16;
/** A distant target answers each lane once per round trip, so the burst grows its connections with the round trip (64 at 100 ms). */
export const MAX_BURST_CONCURRENCY = 64;
const LANES_PER_RTT_MS = 0.64;
export const lanesFor = (rttMs: number, base: number, max: number) => Math.min(max, Math.max(base, Math.ceil(rttMs * LANES_PER_RTT_MS)));
export const BURST_DEADLINE_MS = 30_000;

export interface BurstTarget {
  /** scheme://host:port */
  origin: string;
  /** Path and query, already encoded. */
  path: string;
  /** Sent to in turn (`path` among them), so that a limit counted per URL rather than per key shows (spread.ts). */
  paths?: string[];
  headers: Record<string, string>;
  /** Spellings of one key sent in turn, which one limit must count alike (spread.ts). */
  authorizations?: string[];
  /** false: the requests are not written to the request ledger (the bench is no contract run). */
  ledger?: boolean;
  /** GET unless said: a route probe may be the update, with a body. */
  method?: string;
  body?: string;
}

export interface Reply {
  /** Send order, from 0. */
  i: number;
  /** Path and query it was sent to, where it is not its target's `path` (a spread burst). */
  path?: string;
  sentAt: number;
  at: number;
  /** 0 when the request got no response. */
  status: number;
  /** The content type and the rate-limit headers only. */
  headers: Record<string, string>;
  /** Kept for refusals, and for the answer of a burst of one. */
  body?: string;
  error?: string;
}

interface BurstOptions {
  concurrency?: number;
  /** Grow to this many connections once the first answer tells the round trip (lanesFor). */
  maxConcurrency?: number;
  maxRequests: number;
  deadlineMs?: number;
  /** Stop sending at the first reply that is not served; replies already in flight still count. */
  stopOnRefusal?: boolean;
  /** After stopping on a refusal, this many more requests one by one. */
  confirmations?: number;
}

export type BurstRun = Awaited<ReturnType<typeof burst>>;

export const isServed = (status: number) => status >= 200 && status < 300;

/** Requests a burst may send before it concludes that there is no limit (a correct one refuses sooner). */
export const burstBound = (limit: RateLimit, concurrency: number) => 2 * limit.max + 2 * concurrency + 10;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

export const KEPT_HEADER = /^(content-type|retry-after|x-ratelimit-.+|ratelimit(-.+)?|x-rate-limit-.+)$/i;

/**
 * The burst's request, its options made once and only the kept headers and refusals' bodies read: at thousands of requests a second
 * the client's own work limits the rate (a single request reads its answer whole, which costs nothing there).
 */
function repeatedRequest(target: BurstTarget, connections: Connections, wholeAnswers: boolean): (i: number) => Promise<Reply> {
  const paths = target.paths?.length ? target.paths : [target.path];
  const secure = new URL(target.origin).protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  const authorizations = target.authorizations?.length ? target.authorizations : [undefined];
  const optionsOf = paths.map((path) =>
    authorizations.map((authorization) => ({
      ...urlToHttpOptions(new URL(`${target.origin}${path}`)),
      method: target.method ?? 'GET',
      headers: withUserAgent(authorization ? { ...target.headers, authorization } : target.headers),
      agent: secure ? connections.https : connections.http,
      timeout: ANSWER_TIMEOUT_MS,
    })),
  );
  return (i) =>
    new Promise<Reply>((resolve) => {
      const sentAt = Date.now();
      const options = optionsOf[i % paths.length][i % authorizations.length];
      const path = paths[i % paths.length];
      const reply = (status: number, headers: Record<string, string>, rest: Pick<Reply, 'body' | 'error'>) =>
        resolve({ i, ...(path !== target.path ? { path } : {}), sentAt, at: Date.now(), status, headers, ...rest });
      const req = send(options, (res) => {
        const status = res.statusCode ?? 0;
        const headers: Record<string, string> = {};
        // The kept ones by their lower-case name, a repeated one's values joined (res.headers would keep only the first Retry-After).
        for (let k = 0; k < res.rawHeaders.length; k += 2) {
          const [name, value] = [res.rawHeaders[k].toLowerCase(), res.rawHeaders[k + 1]];
          if (KEPT_HEADER.test(name)) headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
        }
        const chunks: Buffer[] = [];
        const keepBody = wholeAnswers || !isServed(status);
        if (!keepBody) res.resume();
        else res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => reply(0, {}, { error: e.message }));
        res.on('end', () => reply(status, headers, { body: keepBody ? new TextDecoder().decode(Buffer.concat(chunks)) : undefined }));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)));
      req.on('error', (e) => reply(0, {}, { error: e.message }));
      req.end(target.body);
    });
}

export async function burst(target: BurstTarget, options: BurstOptions) {
  const concurrency = Math.max(1, Math.min(options.concurrency ?? BURST_CONCURRENCY, options.maxRequests));
  const maxConcurrency = Math.max(concurrency, Math.min(options.maxConcurrency ?? concurrency, options.maxRequests));
  const connections = keepAliveConnections(maxConcurrency);
  const send = repeatedRequest(target, connections, options.maxRequests === 1);
  const replies: Reply[] = [];
  const confirmations: Reply[] = [];
  const startedAt = Date.now();
  const deadline = startedAt + (options.deadlineMs ?? BURST_DEADLINE_MS);
  let next = 0;
  let stopped = false;

  const lanes: Promise<void>[] = [];
  const lane = async () => {
    while (!stopped && next < options.maxRequests && Date.now() < deadline) {
      const r = await send(next++);
      replies.push(r);
      // A new connection's first answer took two round trips (the connection, then the request).
      if (replies.length === 1 && maxConcurrency > concurrency) {
        const wanted = lanesFor((r.at - r.sentAt) / 2, concurrency, maxConcurrency);
        while (lanes.length < wanted) lanes.push(lane());
      }
      // A dropped connection is no answer from the limiter: only a real refusal stops the burst.
      if (options.stopOnRefusal && r.status !== 0 && !isServed(r.status)) stopped = true;
    }
  };

  try {
    while (lanes.length < concurrency) lanes.push(lane());
    // Lanes opened meanwhile join the list, so that the loop waits for them too.
    for (let k = 0; k < lanes.length; k++) await lanes[k];
    if (stopped && replies.some((r) => r.status !== 0)) {
      for (let k = 0; k < (options.confirmations ?? 0); k++) confirmations.push(await send(next++));
    }
  } finally {
    connections.close();
  }
  // Written after the burst, not per request, which would slow it.
  if (target.ledger !== false) {
    const authorization = headerValue(target.headers, 'authorization');
    const url = (r: Reply) => `${target.origin}${r.path ?? target.path}`;
    recordExchanges(
      [...replies, ...confirmations].map((r) => ({ at: r.sentAt, authorization, method: target.method ?? 'GET', url: url(r), status: r.status })),
    );
  }
  return { replies, confirmations, durationMs: Date.now() - startedAt };
}

export function burstTarget(baseUrl: string, path: string, credentials: { apiKey: string; accountId: string; accountHeader: string }): BurstTarget {
  const url = new URL(`${baseUrl}${path}`);
  return {
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    headers: { authorization: `Bearer ${credentials.apiKey}`, [credentials.accountHeader]: credentials.accountId, accept: 'application/json' },
  };
}

/** One request, sent like the burst's (same pool settings, recorded in the ledger): outside the client, which paces itself by the budget the burst spends on purpose. */
export const sendOne = async (target: BurstTarget): Promise<Reply> => (await burst(target, { concurrency: 1, maxRequests: 1 })).replies[0];
