// rl-limit, rl-exempt, rl-bucket, rl-headers: the global limit moved, one route left out of it, counted per URL, one header lying.
// Small limits and a fake clock keep them fast; each is compared with the clean service.
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { BUCKET_PARTS, HEADER_MUTATIONS } from '../faults/catalogue/fault-kinds';
import { AUTH, fakeClock, SEEDED_API_CHECK_ID } from './reference-testing';
import { service } from './reference-service';

const URL = {
  runtime: '/v1/runtimes/2025.04',
  'check-read': `/v1/checks/${SEEDED_API_CHECK_ID}`,
  list: '/v1/runtimes',
} as const;

/** How many of n requests to url were served before the first 429. */
async function served(app: FastifyInstance, n: number, url: string, authorization: string = AUTH.authorization): Promise<number> {
  for (let i = 0; i < n; i++) if ((await app.inject({ url, headers: { ...AUTH, authorization } })).statusCode === 429) return i;
  return n;
}

for (const [delta, expected] of [
  ['+1', 6],
  ['-1', 4],
  ['+5', 10],
  ['-4', 1],
  ['-9', 1],
] as const) {
  test(`rl-limit:${delta} makes the global limit ${expected} instead of 5, the route's own limit unchanged`, async () => {
    const app = await service([`rl-limit:${delta}`], { rateLimitMax: 5 });
    expect(await served(app, 12, URL.runtime)).toBe(expected);
    expect(await served(app, 25, URL.list)).toBe(20);
    await app.close();
  });
}

test('rl-exempt:runtime: the runtime route is served after any burst, the other routes keep the limit', async () => {
  const app = await service(['rl-exempt:runtime'], { rateLimitMax: 3 });
  expect(await served(app, 10, URL.runtime)).toBe(10);
  expect(await served(app, 10, URL['check-read'])).toBe(3);
  expect(await served(app, 5, URL.runtime)).toBe(5);
  const r = await app.inject({ url: URL.runtime, headers: { ...AUTH } });
  expect(r.headers['x-ratelimit-limit']).toBeUndefined(); // not limited, so nothing to announce
  await app.close();
});

test('rl-exempt:check-read leaves the runtime route limited', async () => {
  const app = await service(['rl-exempt:check-read'], { rateLimitMax: 3 });
  expect(await served(app, 10, URL['check-read'])).toBe(10);
  expect(await served(app, 10, URL.runtime)).toBe(3);
  await app.close();
});

test("rl-exempt:any lifts the global limit everywhere, but not a route's own limit", async () => {
  const app = await service(['rl-exempt:any'], { rateLimitMax: 3 });
  expect(await served(app, 10, URL.runtime)).toBe(10);
  expect(await served(app, 10, URL['check-read'])).toBe(10);
  expect(await served(app, 25, URL.list)).toBe(20);
  await app.close();
});

test('rl-bucket:authorization: the limit again for each spelling of the key, one spelling still limited', async () => {
  const app = await service(['rl-bucket:authorization'], { rateLimitMax: 3 });
  expect(await served(app, 5, URL.runtime)).toBe(3);
  expect(await served(app, 5, URL.runtime, AUTH.authorization.replace('Bearer', 'bearer'))).toBe(3);
  await app.close();
});

for (const part of BUCKET_PARTS.filter((p) => p !== 'authorization')) {
  test(`rl-bucket:${part}: the limit again at each URL of one route, one URL still limited`, async () => {
    const app = await service([`rl-bucket:${part}`], { rateLimitMax: 3 });
    expect(await served(app, 5, URL.runtime)).toBe(3);
    expect(await served(app, 5, '/v1/runtimes/2024.09')).toBe(3);
    await app.close();
  });
}

test("without rl-bucket the ids of one route share the key's limit", async () => {
  const app = await service([], { rateLimitMax: 3 });
  expect(await served(app, 2, URL.runtime)).toBe(2);
  expect(await served(app, 5, '/v1/runtimes/2024.09')).toBe(1);
  await app.close();
});

interface Limits {
  status: number;
  limit?: number;
  remaining?: number;
  reset?: number;
  retry?: number;
}
/** Four requests under a limit of 3, one second apart: three served, the fourth refused. */
async function headers(faults: string[]): Promise<Limits[]> {
  const clock = fakeClock();
  const app = await service(faults, { rateLimitMax: 3, rateLimitWindowS: 60, clock: clock.read });
  const out: Limits[] = [];
  const num = (v: unknown) => (v === undefined ? undefined : Number(v));
  for (let i = 0; i < 4; i++) {
    const r = await app.inject({ url: URL.runtime, headers: { ...AUTH } });
    const h = r.headers;
    out.push({
      status: r.statusCode,
      limit: num(h['x-ratelimit-limit']),
      remaining: num(h['x-ratelimit-remaining']),
      reset: num(h['x-ratelimit-reset']),
      retry: num(h['retry-after']),
    });
    clock.tick(1000);
  }
  await app.close();
  return out;
}

test("rate-limit headers: the clean service tells the truth (the plugin's x-ratelimit-* and retry-after, in seconds)", async () => {
  expect(await headers([])).toEqual([
    { status: 200, limit: 3, remaining: 2, reset: 60 },
    { status: 200, limit: 3, remaining: 1, reset: 59 },
    { status: 200, limit: 3, remaining: 0, reset: 58 },
    { status: 429, limit: 3, remaining: 0, reset: 57, retry: 57 },
  ]);
});

const LIE: Record<(typeof HEADER_MUTATIONS)[number], (l: Limits) => Limits> = {
  'remaining-stuck': (l) => ({ ...l, remaining: l.limit }),
  'remaining-off': (l) => ({ ...l, remaining: l.remaining! + 1 }),
  'limit-wrong': (l) => ({ ...l, limit: l.limit! + 100 }),
  'reset-ms': (l) => ({ ...l, reset: l.reset! * 1000 }),
  'retry-after-zero': (l) => (l.retry === undefined ? l : { ...l, retry: 0 }),
  'retry-after-long': (l) => (l.retry === undefined ? l : { ...l, retry: l.retry * 10 }),
  'retry-after-short': (l) => (l.retry === undefined ? l : { ...l, retry: Math.floor(l.retry / 4) }),
};

for (const mutation of HEADER_MUTATIONS) {
  test(`rl-headers:${mutation} changes that header only, and the limiter does what it did`, async () => {
    const clean = await headers([]);
    expect(await headers([`rl-headers:${mutation}`])).toEqual(clean.map(LIE[mutation]));
  });
}
