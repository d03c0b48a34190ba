// A tiny rate limiter on 127.0.0.1 for the burst's unit tests: fixed window, sliding log, token bucket or
// none; per key, per client or per key and URL; refused requests counted or not; honest or lying
// headers; windows that turn over on cue. Written from the document's words, not from the reference service.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BurstTarget } from '../../support/rate-limit/burst';

export interface LimiterOptions {
  algorithm: 'fixed' | 'sliding' | 'bucket' | 'none';
  max: number;
  windowMs: number;
  /** Status of a refusal (429 unless a fault says otherwise). */
  refusal?: number;
  /** Count per client (every key in one bucket) instead of per key. */
  perClient?: boolean;
  /** Count per key and URL (a cache key), which a limit of the key is not. */
  perUrl?: boolean;
  /** Whether a request refused for its account header (x-bad-account: 1 → 401) counts. */
  countRefused?: boolean;
  /** Send X-RateLimit-* headers (and Retry-After on a 429). */
  headers?: boolean;
  /** Header lies, as the reference's rl-headers faults: remaining-stuck, remaining-off, limit-wrong, reset-ms. */
  lie?: 'remaining-stuck' | 'remaining-off' | 'limit-wrong' | 'reset-ms';
  /** The window turns over at this (1-based) hit, as a clock-aligned fixed window would mid-burst. */
  resetAtHit?: number;
}

export async function limiter(opts: LimiterOptions) {
  const windows = new Map<string, { start: number; count: number }>();
  const logs = new Map<string, number[]>();
  const buckets = new Map<string, { tokens: number; at: number }>();
  let hits = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    hits++;
    const key = (opts.perClient ? 'client' : String(req.headers.authorization)) + (opts.perUrl ? ` ${req.url}` : '');
    const refused = req.headers['x-bad-account'] === '1';
    const counts = !refused || opts.countRefused !== false;
    const now = Date.now();
    let allowed = true;
    let remaining = opts.max;
    let resetMs = opts.windowMs;
    if (opts.algorithm === 'fixed') {
      let w = windows.get(key);
      if (!w || now - w.start >= opts.windowMs || hits === opts.resetAtHit) windows.set(key, (w = { start: now, count: 0 }));
      allowed = w.count < opts.max;
      if (allowed && counts) w.count++;
      remaining = Math.max(0, opts.max - w.count);
      resetMs = w.start + opts.windowMs - now;
    } else if (opts.algorithm === 'sliding') {
      const log = (logs.get(key) ?? []).filter((t) => t > now - opts.windowMs);
      allowed = log.length < opts.max;
      if (allowed && counts) log.push(now);
      logs.set(key, log);
      remaining = opts.max - log.length;
      resetMs = log.length ? log[0] + opts.windowMs - now : opts.windowMs;
    } else if (opts.algorithm === 'bucket') {
      const periodMs = opts.windowMs / opts.max;
      const b = buckets.get(key) ?? { tokens: opts.max, at: now };
      b.tokens = Math.min(opts.max, b.tokens + (now - b.at) / periodMs);
      b.at = now;
      allowed = b.tokens >= 1;
      if (allowed && counts) b.tokens -= 1;
      buckets.set(key, b);
      remaining = Math.floor(b.tokens);
      resetMs = (opts.max - b.tokens) * periodMs;
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (opts.headers !== false) {
      headers['x-ratelimit-limit'] = String(opts.lie === 'limit-wrong' ? opts.max + 100 : opts.max);
      headers['x-ratelimit-remaining'] = String(opts.lie === 'remaining-stuck' ? opts.max : opts.lie === 'remaining-off' ? remaining + 1 : remaining);
      headers['x-ratelimit-reset'] = String(Math.ceil(resetMs / 1000) * (opts.lie === 'reset-ms' ? 1000 : 1));
    }
    // Answer on a later tick, so that requests really overlap.
    setImmediate(() => {
      inFlight--;
      if (!allowed && opts.algorithm !== 'none') {
        const status = opts.refusal ?? 429;
        const error = status === 429 ? 'Too Many Requests' : 'Service Unavailable';
        if (opts.headers !== false) headers['retry-after'] = String(Math.max(1, Math.ceil(resetMs / 1000)));
        return res.writeHead(status, headers).end(JSON.stringify({ statusCode: status, error, message: 'slow down' }));
      }
      if (refused) return res.writeHead(401, headers).end('{"statusCode":401,"error":"Unauthorized"}');
      res.writeHead(200, headers).end('{"name":"2026.04"}');
    });
  };
  const server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    target: (apiKey: string, extra: Record<string, string> = {}): BurstTarget => ({
      origin: `http://127.0.0.1:${port}`,
      path: '/v1/runtimes/2026.04',
      headers: { authorization: `Bearer ${apiKey}`, ...extra },
    }),
    stats: () => ({ hits, maxInFlight }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type Limiter = Awaited<ReturnType<typeof limiter>>;

export async function withLimiter(opts: Partial<LimiterOptions> & Pick<LimiterOptions, 'max' | 'windowMs'>, body: (l: Limiter) => Promise<void>) {
  const l = await limiter({ algorithm: 'fixed', ...opts });
  try {
    await body(l);
  } finally {
    await l.close();
  }
}
