// The burst and its decision, against a tiny in-process limiter on 127.0.0.1 (fixed, sliding, none,
// wrong limits, wrong status, and windows that turn over mid-burst on cue), plus the pure parts.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { burst, type BurstRun, type BurstTarget, type Reply } from '../../support/rate-limit/burst';
import { classify, decide, ledgerPrior, measureLimit, type Measurement } from '../../support/rate-limit/measurement';
import { readLimitHeaders } from '../../support/rate-limit/headers';
import { LEDGER_VARIABLE, recordRequest, requestsSince } from '../../support/http/request-ledger';

process.env[LEDGER_VARIABLE] = join(mkdtempSync(join(tmpdir(), 'burst-unit-')), 'ledger');

interface LimiterOptions {
  algorithm: 'fixed' | 'sliding' | 'none';
  max: number;
  windowMs: number;
  /** Status of a refusal (429 unless a fault says otherwise). */
  refusal?: number;
  /** The window turns over at this (1-based) hit, as a clock-aligned fixed window would mid-burst. */
  resetAtHit?: number;
  /** The window turns over right after the first refusal (a 200 after a 429). */
  resetAfterRefusal?: boolean;
}

/** A limiter keyed by Authorization, with X-RateLimit-* headers and the documented 429 body. */
async function limiter(opts: LimiterOptions) {
  const windows = new Map<string, { start: number; count: number }>();
  const logs = new Map<string, number[]>();
  let hits = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let refusals = 0;
  let turned = false;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    hits++;
    const key = String(req.headers.authorization);
    const now = Date.now();
    let allowed = true;
    let remaining = opts.max;
    let resetMs = opts.windowMs;
    if (opts.algorithm === 'fixed') {
      let w = windows.get(key);
      const turnOver = hits === opts.resetAtHit || (!!opts.resetAfterRefusal && !turned && refusals > 0);
      if (turnOver) turned = true;
      if (!w || now - w.start >= opts.windowMs || turnOver) windows.set(key, (w = { start: now, count: 0 }));
      w.count++;
      allowed = w.count <= opts.max;
      remaining = Math.max(0, opts.max - w.count);
      resetMs = w.start + opts.windowMs - now;
    } else if (opts.algorithm === 'sliding') {
      const log = (logs.get(key) ?? []).filter((t) => t > now - opts.windowMs);
      allowed = log.length < opts.max;
      if (allowed) log.push(now);
      logs.set(key, log);
      remaining = opts.max - log.length;
      resetMs = log.length ? log[0] + opts.windowMs - now : opts.windowMs;
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-ratelimit-limit': String(opts.max), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(Math.ceil(resetMs / 1000)) };
    // Answer on a later tick, so that requests really overlap.
    setImmediate(() => {
      inFlight--;
      if (allowed || opts.algorithm === 'none') return res.writeHead(200, headers).end('{"name":"2026.04"}');
      refusals++;
      const status = opts.refusal ?? 429;
      const error = status === 429 ? 'Too Many Requests' : 'Service Unavailable';
      res.writeHead(status, { ...headers, 'retry-after': String(Math.ceil(resetMs / 1000)) }).end(JSON.stringify({ statusCode: status, error, message: 'slow down' }));
    });
  };
  const server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    target: (apiKey = `k-${randomUUID()}`): BurstTarget => ({ origin: `http://127.0.0.1:${port}`, path: '/v1/runtimes/2026.04', headers: { authorization: `Bearer ${apiKey}` }, ledgerKey: apiKey }),
    stats: () => ({ hits, maxInFlight }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const LIMIT = { max: 50, windowSeconds: 1 };
type Limiter = Awaited<ReturnType<typeof limiter>>;

async function withLimiter(opts: Partial<LimiterOptions>, body: (l: Limiter) => Promise<void>) {
  const l = await limiter({ algorithm: 'fixed', max: LIMIT.max, windowMs: LIMIT.windowSeconds * 1000, ...opts });
  try {
    await body(l);
  } finally {
    await l.close();
  }
}

/** The suite's earlier requests with a key: sent and recorded in the ledger, as the client does. */
async function spend(target: BurstTarget, n: number) {
  const run = await burst({ ...target, ledgerKey: undefined }, { concurrency: 1, maxRequests: n });
  for (const r of run.replies) recordRequest(target.ledgerKey!, r.sentAt);
}

const measure = (target: BurstTarget, limit = LIMIT) => measureLimit({ target, limit, concurrency: 8, prior: (since) => ledgerPrior(target.ledgerKey!, since) });

test.describe('measureLimit against a live limiter', () => {
  test('fixed window, nothing spent before: holds at the first burst', async () => {
    await withLimiter({}, async (l) => {
      const r = await measure(l.target());
      expect(r.outcome).toEqual({ kind: 'holds', limit: 50 });
      expect(r.measurements).toHaveLength(1);
      expect(r.measurements[0].served).toBe(50);
    });
  });

  for (const algorithm of ['fixed', 'sliding'] as const) {
    test(`${algorithm} window with 20 requests spent before: the ledger accounts for them`, async () => {
      await withLimiter({ algorithm }, async (l) => {
        const t = l.target();
        await spend(t, 20);
        const r = await measure(t);
        expect(r.outcome).toEqual({ kind: 'holds', limit: 50 });
        expect(r.measurements).toHaveLength(1);
        expect(r.measurements[0]).toMatchObject({ served: 30, prior: { counted: 20 } });
      });
    });
  }

  test('a window that turns over mid-burst is detected and measured again, not misread', async () => {
    // 30 spent in the old window, the window turns over at the 40th hit: the first burst is served 9 + 50.
    await withLimiter({ resetAtHit: 40 }, async (l) => {
      const t = l.target();
      await spend(t, 30);
      const r = await measure(t);
      expect(r.measurements[0].shape).toBe('more');
      expect(r.measurements[1]).toMatchObject({ clean: true, shape: 'exact', served: 50 });
      expect(r.outcome).toEqual({ kind: 'holds', limit: 50 });
    });
  });

  test('a request served again after a 429 is a reset sign: measured again', async () => {
    await withLimiter({ resetAfterRefusal: true }, async (l) => {
      const r = await measure(l.target());
      expect(r.measurements[0].resetSign).toBeTruthy();
      expect(r.measurements.length).toBeGreaterThanOrEqual(2);
      expect(r.outcome).toEqual({ kind: 'holds', limit: 50 });
    });
  });

  test('the ledger over-counting (a reset since the earlier requests) costs a window, not a verdict', async () => {
    await withLimiter({}, async (l) => {
      const t = l.target();
      for (let i = 0; i < 25; i++) recordRequest(t.ledgerKey!, Date.now()); // recorded, never sent
      const r = await measure(t);
      expect(r.measurements[0].shape).toBe('more');
      expect(r.outcome).toEqual({ kind: 'holds', limit: 50 });
    });
  });

  test('a limit lower than stated: RL-1 breaks, decided in a clean window', async () => {
    await withLimiter({ max: 40 }, async (l) => {
      const r = await measure(l.target());
      expect(r.outcome).toEqual({ kind: 'too-low', served: 40 });
      expect(r.measurements.map((m) => m.clean)).toEqual([false, true]);
    });
  });

  test('a limit higher than stated: RL-2 breaks, seen in two clean windows', async () => {
    await withLimiter({ max: 60 }, async (l) => {
      const r = await measure(l.target());
      expect(r.outcome).toEqual({ kind: 'too-high', served: [60, 60] });
      expect(r.measurements).toHaveLength(3);
    });
  });

  test('higher and lower limits are told apart under a sliding window too', async () => {
    await withLimiter({ algorithm: 'sliding', max: 45 }, async (l) => {
      expect((await measure(l.target())).outcome).toEqual({ kind: 'too-low', served: 45 });
    });
    await withLimiter({ algorithm: 'sliding', max: 55 }, async (l) => {
      expect((await measure(l.target())).outcome).toEqual({ kind: 'too-high', served: [55, 55] });
    });
  });

  test('no limit: decided at the bound, within a window', async () => {
    await withLimiter({ algorithm: 'none' }, async (l) => {
      const r = await measure(l.target());
      expect(r.outcome).toMatchObject({ kind: 'no-limit', sent: 2 * 50 + 2 * 8 + 10 });
      expect(r.measurements).toHaveLength(1);
    });
  });

  test('503 instead of 429 is a wrong status', async () => {
    await withLimiter({ refusal: 503 }, async (l) => {
      expect((await measure(l.target())).outcome).toEqual({ kind: 'wrong-status', status: 503, served: 50 });
    });
  });

  test('an unreachable target is inconclusive, bounded in attempts', async () => {
    const r = await measureLimit({ target: { origin: 'http://127.0.0.1:9', path: '/', headers: {} }, limit: { max: 5, windowSeconds: 0.2 }, maxAttempts: 2 });
    expect(r.outcome.kind).toBe('inconclusive');
    expect(r.measurements.map((m) => m.shape)).toEqual(['broken', 'broken']);
  });
});

test.describe('burst', () => {
  test('bounded in requests and concurrency, every request in the ledger', async () => {
    await withLimiter({ algorithm: 'none' }, async (l) => {
      const t = l.target();
      const since = Date.now() - 1;
      const run = await burst(t, { concurrency: 5, maxRequests: 200 });
      expect(run.replies).toHaveLength(200);
      expect(l.stats().maxInFlight).toBeLessThanOrEqual(5);
      expect(l.stats().maxInFlight).toBeGreaterThan(1);
      expect(requestsSince(t.ledgerKey!, since)).toBe(200);
    });
  });

  test('stops at the first refusal, then confirms beyond the limit', async () => {
    await withLimiter({}, async (l) => {
      const run = await burst(l.target(), { concurrency: 4, maxRequests: 500, stopOnRefusal: true, confirmations: 3 });
      expect(run.replies.filter((r) => r.status === 200)).toHaveLength(50);
      expect(run.replies.length).toBeLessThanOrEqual(50 + 4);
      expect(run.confirmations.map((r) => r.status)).toEqual([429, 429, 429]);
      expect(run.replies.find((r) => r.status === 429)?.body).toContain('Too Many Requests');
    });
  });
});

test.describe('classify and decide', () => {
  const reply = (i: number, status: number): Reply => ({ i, sentAt: i, at: i + 1, status, headers: {} });
  const run = (served: number, refused: number, confirm: number[] = [429, 429, 429], status = 429): BurstRun => ({
    replies: [...Array.from({ length: served }, (_, i) => reply(i, 200)), ...Array.from({ length: refused }, (_, i) => reply(served + i, status))],
    // Confirmations go out one by one right after the burst stops.
    confirmations: confirm.map((s, i) => reply(served + refused + i, s)),
    startedAt: 0,
    endedAt: 100,
  });
  const limit = { max: 10, windowSeconds: 1 };
  const none = { counted: 0, uncertain: 0 };
  const m = (shape: Measurement['shape'], clean: boolean, served = 10, resetSign?: string): Measurement =>
    ({ attempt: 1, clean, prior: none, sent: served + 1, served, refusals: [], replies: [], confirmations: [], errors: [], durationMs: 100, bound: 40, shape, resetSign });

  test('shapes', () => {
    expect(classify(limit, none, run(10, 2), 40).shape).toBe('exact');
    expect(classify(limit, { counted: 4, uncertain: 0 }, run(6, 2), 40).shape).toBe('exact');
    expect(classify(limit, { counted: 4, uncertain: 2 }, run(4, 2), 40).shape).toBe('exact'); // 2 may not count
    expect(classify(limit, { counted: 4, uncertain: 1 }, run(4, 2), 40).shape).toBe('fewer');
    expect(classify(limit, { counted: 4, uncertain: 0 }, run(7, 2), 40).shape).toBe('more');
    expect(classify(limit, none, run(40, 0, []), 40).shape).toBe('none');
    expect(classify(limit, none, run(12, 0, []), 40).shape).toBe('broken'); // stopped short of the bound
    expect(classify(limit, none, run(10, 2, [], 503), 40).shape).toBe('wrong-status');
    const again = classify(limit, none, run(10, 2, [429, 200, 200]), 40);
    expect(again.shape).toBe('exact');
    expect(again.resetSign).toContain('2 of 3');
  });

  test('a token bucket\'s refill during the burst is allowed, up to 1% of the limit', () => {
    const documented = { max: 600, windowSeconds: 60 }; // one token per 100 ms
    // 605 served over ~0.6 s: five refilled tokens on top of 600.
    expect(classify(documented, none, run(605, 2), 1300).shape).toBe('exact');
    expect(classify(documented, none, run(607, 2), 1300).shape).toBe('more'); // beyond 1% (6)
    expect(classify(documented, none, run(700, 2), 1300).shape).toBe('more');
  });

  test('only what cannot be a window turning over is decisive', () => {
    expect(decide([m('exact', false)], limit)).toEqual({ kind: 'holds', limit: 10 });
    expect(decide([m('exact', false, 10, 'served again')], limit)).toBeUndefined();
    expect(decide([m('fewer', false, 7)], limit)).toBeUndefined();
    expect(decide([m('fewer', false, 7), m('fewer', true, 7)], limit)).toEqual({ kind: 'too-low', served: 7 });
    expect(decide([m('more', false, 13)], limit)).toBeUndefined();
    expect(decide([m('more', false, 13), m('more', true, 12)], limit)).toBeUndefined();
    expect(decide([m('more', false, 13), m('more', true, 12), m('more', true, 12)], limit)).toEqual({ kind: 'too-high', served: [12, 12] });
    expect(decide([m('more', false, 13), m('exact', true)], limit)).toEqual({ kind: 'holds', limit: 10 });
    expect(decide([{ ...m('none', false, 40), durationMs: 5000 }], limit)).toBeUndefined(); // longer than a window
    expect(decide([m('none', false, 40)], limit)).toMatchObject({ kind: 'no-limit' });
  });
});

test.describe('rate-limit headers', () => {
  const at = Date.parse('2026-08-18T12:00:00Z');
  test('X-RateLimit-* and Retry-After in seconds', () => {
    expect(readLimitHeaders({ 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '42', 'retry-after': '42' }, at))
      .toMatchObject({ limit: 600, remaining: 0, reset: 42, retryAfter: 42, problems: [] });
  });
  test('RateLimit-* with a policy list, reset as epoch seconds, Retry-After as a date', () => {
    const h = readLimitHeaders({ 'RateLimit-Limit': '600, 600;w=60', 'RateLimit-Remaining': '12', 'RateLimit-Reset': String(at / 1000 + 30), 'Retry-After': new Date(at + 30_000).toUTCString() }, at);
    expect(h).toMatchObject({ limit: 600, remaining: 12, reset: 30, retryAfter: 30 });
    expect(h.names).toHaveLength(4);
  });
  test('structured RateLimit and RateLimit-Policy (draft 8+) and draft 7', () => {
    expect(readLimitHeaders({ ratelimit: '"default";r=5;t=20', 'ratelimit-policy': '"default";q=600;w=60' }, at)).toMatchObject({ limit: 600, remaining: 5, reset: 20 });
    expect(readLimitHeaders({ ratelimit: 'limit=100, remaining=3, reset=9' }, at)).toMatchObject({ limit: 100, remaining: 3, reset: 9 });
  });
  test('nonsense is reported, absence is not', () => {
    expect(readLimitHeaders({ 'retry-after': 'soon', 'x-ratelimit-remaining': 'lots' }, at).problems).toHaveLength(2);
    expect(readLimitHeaders({ 'content-type': 'application/json' }, at)).toMatchObject({ names: [], problems: [] });
  });
});
