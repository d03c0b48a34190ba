// The burst and its decision against tiny in-process limiters (test-limiter.ts): a limit one off either
// way is caught at the first burst, fixed and sliding alike; a fresh window decides without waiting;
// a shared or non-fresh window is settled by the target's own headers or waited out, never misread.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { burst, lanesFor, type BurstTarget } from '../../support/rate-limit/burst';
import { MAX_ATTEMPTS, measureLimit, type MeasureOptions } from '../../support/rate-limit/measurement';
import { knownPrior, lastActivity } from '../../support/rate-limit/known-prior';
import { readLedger, recordExchanges } from '../../support/http/request-ledger';
import { setRunDir } from '../../support/run/run-files';
import { withLimiter } from './test-limiter';

// The ledger is the process's: another file's tests in this worker name their own, so each test names this one.
const RUN_DIR = mkdtempSync(join(tmpdir(), 'burst-unit-'));
test.beforeEach(() => setRunDir(RUN_DIR));

// Windows of 2 s: long enough that a loaded machine does not see one turn over mid-burst by accident.
const LIMIT = { max: 50, windowSeconds: 2 };
const W = { max: LIMIT.max, windowMs: 2000 };
const newKey = () => `k-${randomUUID()}`;

const keyOf = (t: BurstTarget) => t.headers.authorization.replace(/^Bearer /, '');

/** measureLimit as the burst test calls it: what the suite sent with the key comes from the ledger. */
const measure = (target: BurstTarget, extra: Partial<MeasureOptions> = {}) =>
  measureLimit({ target, limit: LIMIT, concurrency: 8, known: (since) => knownPrior(keyOf(target), since), lastActivity: () => lastActivity(), ...extra });

/**
 * Windows of 6 s where a test says the burst decides without waiting: a burst takes milliseconds, but on
 * a machine starved by other work a 2 s window has been seen to turn over mid-burst (and the burst then
 * rightly waits). Nothing here waits a window unless something is wrong.
 */
const FRESH_LIMIT = { max: LIMIT.max, windowSeconds: 6 };
const FRESH = { max: LIMIT.max, windowMs: 6000 };
const measureFresh = (target: BurstTarget, extra: Partial<MeasureOptions> = {}) => measure(target, { limit: FRESH_LIMIT, ...extra });

/** Requests sent before the burst: recorded in the ledger (as the client does), or not (another run, another client). */
async function spend(target: BurstTarget, n: number, recorded = true) {
  const run = await burst({ ...target, ledger: false }, { concurrency: 1, maxRequests: n });
  if (recorded)
    recordExchanges(
      run.replies.map((r) => ({
        at: r.sentAt,
        authorization: target.headers.authorization,
        method: 'GET',
        url: `${target.origin}${target.path}`,
        status: r.status,
      })),
    );
}

test.describe('a fresh window decides at the first burst', () => {
  for (const algorithm of ['fixed', 'sliding'] as const) {
    test(`${algorithm}: the limit holds`, async () => {
      await withLimiter({ ...FRESH, algorithm }, async (l) => {
        const r = await measureFresh(l.target(newKey()));
        expect(r.outcome).toEqual({ kind: 'holds', limit: 50 });
        expect(r.measurements).toHaveLength(1);
        expect(r.waits).toEqual([]);
      });
    });

    test(`${algorithm}: one more than the limit fails RL-2, without waiting`, async () => {
      await withLimiter({ ...FRESH, algorithm, max: 51 }, async (l) => {
        const r = await measureFresh(l.target(newKey()));
        expect(r.outcome).toEqual({ kind: 'too-high', served: [51], base: 0 });
        expect(r.waits).toEqual([]);
      });
    });

    test(`${algorithm}: one fewer than the limit fails RL-1, without waiting`, async () => {
      await withLimiter({ ...FRESH, algorithm, max: 49 }, async (l) => {
        const r = await measureFresh(l.target(newKey()), { otherKey: l.target(newKey()) });
        expect(r.outcome).toEqual({ kind: 'too-low', served: 49, base: 0 });
        expect(r.measurements[0].notes).toContain('another key was still served right after the burst');
        expect(r.waits).toEqual([]);
      });
    });

    test(`${algorithm}, no rate-limit headers: one off either way is still caught at once`, async () => {
      await withLimiter({ ...FRESH, algorithm, max: 51, headers: false }, async (l) => {
        expect((await measureFresh(l.target(newKey()))).outcome).toMatchObject({ kind: 'too-high', served: [51] });
      });
      await withLimiter({ ...FRESH, algorithm, max: 49, headers: false }, async (l) => {
        expect((await measureFresh(l.target(newKey()))).outcome).toMatchObject({ kind: 'too-low', served: 49 });
      });
    });
  }

  test('a token bucket: what it refilled while the burst ran is no excess', async () => {
    await withLimiter({ ...FRESH, algorithm: 'bucket' }, async (l) => {
      const r = await measureFresh(l.target(newKey()));
      expect(r.outcome.kind, r.story.join('\n')).toBe('holds');
      expect(r.waits, r.story.join('\n')).toEqual([]);
    });
  });
});

test.describe('a window the suite already used', () => {
  test("one key shared with earlier requests: the target's own headers say what counted, no wait", async () => {
    for (const countRefused of [true, false]) {
      await withLimiter({ ...W, countRefused }, async (l) => {
        const key = newKey();
        await spend(l.target(key), 12);
        await spend(l.target(key, { 'x-bad-account': '1' }), 7); // refused: counted or not, the document does not say
        const r = await measure(l.target(key));
        expect(r.outcome).toEqual({ kind: 'holds', limit: 50 });
        expect(r.measurements[0]).toMatchObject({ baseFrom: 'headers', base: countRefused ? 19 : 12, served: countRefused ? 31 : 38 });
        expect(r.waits).toEqual([]);
      });
    }
  });

  test('one key, earlier requests, and a limit one too high: caught through the headers', async () => {
    await withLimiter({ ...W, max: 51 }, async (l) => {
      const key = newKey();
      await spend(l.target(key), 10);
      // The honest limit header names 51, not the configured 50: not trusted, so a clean window decides.
      const r = await measure(l.target(key));
      expect(r.outcome, r.story.join('\n')).toMatchObject({ kind: 'too-high' });
      expect(r.measurements[r.measurements.length - 1].served).toBe(51);
      expect(r.waits.length, r.story.join('\n')).toBeGreaterThanOrEqual(1);
    });
  });

  test('no headers to tell how earlier requests counted: waits a window, says why, then decides', async () => {
    await withLimiter({ ...W, headers: false, countRefused: false }, async (l) => {
      const key = newKey();
      await spend(l.target(key, { 'x-bad-account': '1' }), 5);
      const r = await measure(l.target(key));
      expect(r.measurements[0].shape, r.story.join('\n')).toBe('ambiguous');
      expect(r.waits[0]).toMatch(/not fresh: 5 request\(s\) with the key.*5 refused.*no remaining\/limit headers/);
      expect(r.outcome, r.story.join('\n')).toEqual({ kind: 'holds', limit: 50 });
    });
  });

  test('a run shortly before, with no record: the headers give it away, the burst waits instead of failing RL-1', async () => {
    await withLimiter({ ...W, algorithm: 'sliding' }, async (l) => {
      const key = newKey();
      await spend(l.target(key), 15, false);
      const r = await measure(l.target(key));
      expect(r.measurements[0].shape).toBe('ambiguous');
      expect(r.measurements[0].why).toMatch(/15 request\(s\) had been counted before the burst/);
      expect(r.outcome).toEqual({ kind: 'holds', limit: 50 });
    });
  });

  test("the only key, unused so far in this run: fewer served may be another run's doing, so a clean window decides", async () => {
    await withLimiter({ ...W, max: 49, headers: false }, async (l) => {
      const r = await measure(l.target(newKey()), { exclusive: false });
      expect(r.measurements[0].why, r.story.join('\n')).toMatch(/only key may have been used/);
      expect(r.outcome).toEqual({ kind: 'too-low', served: 49, base: 0 });
      expect(r.waits).toHaveLength(1);
    });
  });

  test('a limit counted per client: another key is refused too, so the burst waits and measures again', async () => {
    await withLimiter({ ...W, perClient: true, headers: false }, async (l) => {
      const other = l.target(newKey());
      await spend(other, 20);
      const r = await measure(l.target(newKey()), { otherKey: other });
      expect(r.measurements[0], r.story.join('\n')).toMatchObject({ shape: 'ambiguous', why: expect.stringMatching(/another key was refused too/) });
      expect(r.outcome).toEqual({ kind: 'holds', limit: 50 });
    });
    // With headers, they already say that the window held requests of other keys.
    await withLimiter({ ...W, perClient: true }, async (l) => {
      const other = l.target(newKey());
      await spend(other, 20);
      const r = await measure(l.target(newKey()), { otherKey: other });
      expect(r.measurements[0].why, r.story.join('\n')).toMatch(/20 request\(s\) had been counted before the burst/);
      expect(r.outcome).toEqual({ kind: 'holds', limit: 50 });
    });
  });

  test('a window that turns over mid-burst is measured again, not misread', async () => {
    await withLimiter({ ...W, resetAtHit: 30 }, async (l) => {
      const r = await measure(l.target(newKey()));
      expect(r.measurements[0].shape).toBe('more');
      // Measured again after a window without requests: a clean measurement.
      expect(r.measurements.length).toBeGreaterThan(1);
      expect(r.measurements[r.measurements.length - 1]).toMatchObject({ shape: 'exact', served: 50 });
      expect(r.outcome).toEqual({ kind: 'holds', limit: 50 });
    });
  });

  test('many more than the limit must be seen in two fresh windows', async () => {
    await withLimiter({ ...W, max: 70 }, async (l) => {
      const r = await measure(l.target(newKey()));
      expect(r.outcome).toEqual({ kind: 'too-high', served: [70, 70], base: 0 });
      expect(r.waits).toHaveLength(1);
    });
  });
});

test.describe('limits that are not there', () => {
  test('no limit: decided at the bound, within a window', async () => {
    await withLimiter({ ...W, algorithm: 'none' }, async (l) => {
      const r = await measure(l.target(newKey()));
      expect(r.outcome).toMatchObject({ kind: 'no-limit', sent: 2 * 50 + 2 * 8 + 10 });
      expect(r.measurements).toHaveLength(1);
    });
  });

  test('503 instead of 429 is a wrong status', async () => {
    await withLimiter({ ...W, refusal: 503 }, async (l) => {
      expect((await measure(l.target(newKey()))).outcome).toEqual({ kind: 'wrong-status', status: 503, served: 50 });
    });
  });

  test('an unreachable target is inconclusive, bounded in attempts', async () => {
    const target = { origin: 'http://127.0.0.1:9', path: '/', headers: {} };
    const r = await measureLimit({
      target,
      limit: { max: 5, windowSeconds: 0.2 },
      known: (since) => knownPrior(newKey(), since),
      lastActivity: () => lastActivity(),
    });
    expect(r.outcome.kind).toBe('inconclusive');
    expect(r.measurements.map((m) => m.shape)).toEqual(Array(MAX_ATTEMPTS).fill('broken'));
  });
});

test.describe('burst', () => {
  test('bounded in requests and concurrency, every request in the ledger with its answer', async () => {
    await withLimiter({ ...W, algorithm: 'none' }, async (l) => {
      const key = newKey();
      const since = Date.now() - 1;
      const run = await burst(l.target(key), { concurrency: 5, maxRequests: 200 });
      expect(run.replies).toHaveLength(200);
      expect(l.stats().maxInFlight).toBeLessThanOrEqual(5);
      expect(l.stats().maxInFlight).toBeGreaterThan(1);
      expect(knownPrior(key, since)).toMatchObject({ count: 200, kinds: { served: 200 } });
      expect(readLedger().filter((e) => e.at >= since && e.path === '/v1/runtimes/2026.04').length).toBeGreaterThanOrEqual(200);
    });
  });

  test('stops at the first refusal, then confirms beyond the limit', async () => {
    await withLimiter(W, async (l) => {
      const run = await burst(l.target(newKey()), { concurrency: 4, maxRequests: 500, stopOnRefusal: true, confirmations: 3 });
      expect(run.replies.filter((r) => r.status === 200)).toHaveLength(50);
      expect(run.replies.length).toBeLessThanOrEqual(50 + 4);
      expect(run.confirmations.map((r) => r.status)).toEqual([429, 429, 429]);
      expect(run.replies.find((r) => r.status === 429)?.body).toContain('Too Many Requests');
    });
  });

  test('a reply keeps the content type and the rate-limit headers, and a refusal its body only', async () => {
    await withLimiter(W, async (l) => {
      const run = await burst(l.target(newKey()), { concurrency: 2, maxRequests: 60, stopOnRefusal: true });
      const served = run.replies.find((r) => r.status === 200)!;
      const refused = run.replies.find((r) => r.status === 429)!;
      const limitHeaders = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
      expect(Object.keys(served.headers).sort()).toEqual(['content-type', ...limitHeaders]);
      expect(Object.keys(refused.headers).sort()).toEqual(['content-type', 'retry-after', ...limitHeaders]);
      expect(served.headers['x-ratelimit-limit']).toBe('50');
      expect(served.body).toBeUndefined();
      expect(JSON.parse(refused.body!)).toMatchObject({ statusCode: 429 });
    });
  });

  test('a connection dropped mid-answer is no answer (status 0), and the burst goes on', async () => {
    let n = 0;
    const server = createServer((_req, res) => {
      if (++n === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"statusCode":');
        setImmediate(() => res.socket?.destroy());
      } else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const run = await burst(
        { origin: `http://127.0.0.1:${port}`, path: '/', headers: {}, ledger: false },
        { concurrency: 1, maxRequests: 3, stopOnRefusal: true },
      );
      expect(run.replies.map((r) => r.status)).toEqual([0, 200, 200]);
      expect(run.replies[0].error).toBeTruthy();
    } finally {
      server.close();
    }
  });

  test("a header's name in any case is kept lower-cased, a repeated one's values joined", async () => {
    const server = createServer((_req, res) => {
      res.setHeader('X-RateLimit-Limit', '7');
      res.setHeader('RateLimit-Policy', ['7;w=60', '100;w=3600']);
      res.setHeader('X-Unrelated', 'dropped');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const run = await burst({ origin: `http://127.0.0.1:${port}`, path: '/', headers: {}, ledger: false }, { maxRequests: 1 });
      expect(run.replies[0].headers).toEqual({ 'x-ratelimit-limit': '7', 'ratelimit-policy': '7;w=60, 100;w=3600', 'content-type': 'application/json' });
    } finally {
      server.close();
    }
  });
});

test('against a distant target the burst opens as many connections as the round trip asks for, near one it keeps its width', async () => {
  expect(lanesFor(2, 16, 64)).toBe(16);
  expect(lanesFor(50, 16, 64)).toBe(32);
  expect(lanesFor(100, 16, 64)).toBe(64);
  expect(lanesFor(400, 16, 64)).toBe(64);
  // A server that answers in 80 ms (the first answer, on a new connection, tells about 40 ms of round trip): 16 lanes at first, then more.
  let inFlight = 0;
  let most = 0;
  const server = createServer((_req, res) => {
    most = Math.max(most, ++inFlight);
    setTimeout(() => {
      inFlight--;
      res.end('{}');
    }, 80);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const target: BurstTarget = { origin, path: '/x', headers: { authorization: 'Bearer k' }, ledger: false };
    await burst(target, { concurrency: 16, maxConcurrency: 64, maxRequests: 200 });
    expect(most, `at most ${most} in flight`).toBeGreaterThan(16);
    most = 0;
    await burst(target, { concurrency: 16, maxRequests: 200 });
    expect(most).toBe(16);
  } finally {
    server.close();
  }
});

test.describe('a burst spread over URLs of one route', () => {
  const spread = (t: BurstTarget): BurstTarget => ({ ...t, paths: [t.path, '/v1/runtimes/2025.04', '/v1/runtimes/2024.09'] });

  test('a limit of the key holds across them, each reply naming where it went', async () => {
    await withLimiter(FRESH, async (l) => {
      const report = await measureFresh(spread(l.target(newKey())));
      expect(report.outcome).toEqual({ kind: 'holds', limit: LIMIT.max });
      const replies = report.measurements[0].replies;
      expect(new Set(replies.map((r) => r.path ?? '/v1/runtimes/2026.04')).size).toBe(3);
    });
  });

  test('a limit counted per key and URL serves the limit at each: no limit at all, decided at once', async () => {
    await withLimiter({ ...FRESH, perUrl: true }, async (l) => {
      const report = await measureFresh(spread(l.target(newKey())));
      expect(report.outcome.kind).toBe('no-limit');
      expect(report.waits).toEqual([]);
    });
  });

  test('the ledger names each URL the burst sent to', async () => {
    await withLimiter(FRESH, async (l) => {
      const t = spread(l.target(newKey()));
      await burst(t, { concurrency: 3, maxRequests: 3 });
      const mine = readLedger().filter((e) => e.at >= Date.now() - 5000 && e.tags.length);
      expect(new Set(mine.slice(-3).map((e) => e.path))).toEqual(new Set(t.paths));
    });
  });
});
