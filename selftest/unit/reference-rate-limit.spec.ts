// The limiter: both stores under a fake clock, the 429 body and headers, the custom route limit.
import { expect, test } from '@playwright/test';
import { FixedWindowStore } from '../../reference/service/rate-limit/fixed-window-store';
import { SlidingWindowStore } from '../../reference/service/rate-limit/sliding-window-store';
import type { RateLimitStore, StoreResult } from '../../reference/service/rate-limit/store';
import { AUTH, AUTH2, call, fakeClock, service } from './reference-testing';

const incr = (s: RateLimitStore, key: string, window: number, max: number) =>
  new Promise<StoreResult>((resolve, reject) => s.incr(key, (e, r) => (e ? reject(e) : resolve(r)), window, max));

test('sliding store: max per any window, freed one by one as hits age out', async () => {
  const clock = fakeClock();
  const s = new SlidingWindowStore({ clock: clock.read });
  for (let i = 1; i <= 3; i++) {
    expect((await incr(s, 'k', 1000, 3)).current).toBe(i);
    clock.tick(300);
  }
  // t=900: full; the oldest hit (t=0) frees at t=1000.
  const over = await incr(s, 'k', 1000, 3);
  expect(over.current).toBe(4);
  expect(over.ttl).toBe(100);
  clock.tick(100); // t=1000
  expect((await incr(s, 'k', 1000, 3)).current).toBe(3);
  expect((await incr(s, 'k', 1000, 3)).current).toBe(4); // the hit at t=300 is still inside
  clock.tick(300); // t=1300: the hit at t=300 is gone
  expect((await incr(s, 'k', 1000, 3)).current).toBe(3);
  expect((await incr(s, 'other', 1000, 3)).current).toBe(1);
  expect((await incr(s.child({}), 'k', 1000, 3)).current).toBe(1); // a child (route) store is separate
});

test('sliding store: no burst at a window edge, unlike a fixed window', async () => {
  const clock = fakeClock();
  const sliding = new SlidingWindowStore({ clock: clock.read });
  const fixed = new FixedWindowStore({ clock: clock.read });
  clock.tick(0);
  for (let i = 0; i < 3; i++) {
    await incr(sliding, 'k', 1000, 3);
    await incr(fixed, 'k', 1000, 3);
  }
  clock.tick(1000);
  expect((await incr(fixed, 'k', 1000, 3)).current).toBe(1);
  expect((await incr(sliding, 'k', 1000, 3)).current).toBe(1);
});

test('fixed store: counts in one window and resets after it', async () => {
  const clock = fakeClock();
  const s = new FixedWindowStore({ clock: clock.read });
  expect(await incr(s, 'k', 1000, 2)).toEqual({ current: 1, ttl: 1000 });
  clock.tick(400);
  expect(await incr(s, 'k', 1000, 2)).toEqual({ current: 2, ttl: 600 });
  clock.tick(600);
  expect((await incr(s, 'k', 1000, 2)).current).toBe(1);
});

for (const algorithm of ['fixed', 'sliding'] as const) {
  test(`service (${algorithm}): 429 after the limit, true headers, served again after the window`, async () => {
    const clock = fakeClock();
    const app = await service([], { rateLimitMax: 5, rateLimitWindowS: 60, rateLimitAlgorithm: algorithm, clock: clock.read });
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await call(app, { url: '/v1/runtimes/2025.04' });
      expect(r.status).toBe(200);
      expect(r.headers['x-ratelimit-limit']).toBe('5');
      expect(Number(r.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
      remaining.push(Number(r.headers['x-ratelimit-remaining']));
      clock.tick(1000);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const r = await call(app, { url: '/v1/runtimes/2025.04' });
    expect(r.status).toBe(429);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.body).toEqual({ statusCode: 429, error: 'Too Many Requests', message: expect.any(String), attributes: { limit: 5, windowSeconds: 60 } });
    const retry = Number(r.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(r.headers['x-ratelimit-remaining']).toBe('0');
    // The other key has its own budget.
    expect((await call(app, { url: '/v1/runtimes/2025.04', headers: { ...AUTH2 } })).status).toBe(200);
    clock.tick(retry * 1000);
    expect((await call(app, { url: '/v1/runtimes/2025.04' })).status).toBe(200);
    await app.close();
  });
}

test('service: the runtime list has its own 20 / 10 s limit, per key', async () => {
  const clock = fakeClock();
  const app = await service([], { clock: clock.read });
  for (let i = 0; i < 20; i++) expect((await call(app, { url: '/v1/runtimes' })).status).toBe(200);
  const r = await call(app, { url: '/v1/runtimes' });
  expect(r.status).toBe(429);
  expect(r.body.attributes).toEqual({ limit: 20, windowSeconds: 10 });
  expect((await call(app, { url: '/v1/runtimes', headers: { ...AUTH2 } })).status).toBe(200);
  expect((await call(app, { url: '/v1/runtimes/2025.04' })).status).toBe(200); // other routes unaffected
  clock.tick(10_000);
  expect((await call(app, { url: '/v1/runtimes' })).status).toBe(200);
  await app.close();
});

test('service: the default limit is 600 per 60 s, and requests without a key are limited too', async () => {
  const clock = fakeClock();
  const app = await service([], { clock: clock.read });
  for (let i = 0; i < 600; i++) {
    const r = await app.inject({ url: '/v1/runtimes/2025.04', headers: { ...AUTH } });
    if (r.statusCode !== 200) throw new Error(`request ${i + 1} answered ${r.statusCode}`);
  }
  expect((await call(app, { url: '/v1/runtimes/2025.04' })).status).toBe(429);
  for (let i = 0; i < 600; i++) await app.inject({ url: '/v1/runtimes/2025.04' });
  expect((await call(app, { url: '/v1/runtimes/2025.04', headers: {} })).status).toBe(429);
  await app.close();
});
