// RATE_LIMIT_COUNT_REFUSED: whether a request the service refuses counts against the limit. The document
// does not say, so both settings are correct limiters: `on` counts every request, `off` only those
// answered 2xx. In both, a 429 itself never counts and never moves the window.
import { expect, test } from '@playwright/test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { FixedWindowStore } from '../../reference/service/rate-limit/fixed-window-store';
import { SlidingWindowStore } from '../../reference/service/rate-limit/sliding-window-store';
import { hitKey, type RateLimitStore, type StoreResult } from '../../reference/service/rate-limit/store';
import { readConfig } from '../../reference/service/config';
import { AUTH, fakeClock, SECOND_ACCOUNT_ID, SEEDED_API_CHECK_ID, service, type FakeClock } from './reference-testing';

const incr = (s: RateLimitStore, key: string, max = 2) =>
  new Promise<StoreResult>((resolve, reject) => s.incr(key, (e, r) => (e ? reject(e) : resolve(r)), 1000, max));

for (const Store of [FixedWindowStore, SlidingWindowStore]) {
  test(`${Store.name}: a refund takes back exactly its own hit; over-limit hits are never recorded`, async () => {
    const clock = fakeClock();
    const s = new Store({ clock: clock.read });
    expect((await incr(s, hitKey('k', 'a'))).current).toBe(1);
    clock.tick(100);
    expect((await incr(s, hitKey('k', 'b'))).current).toBe(2);
    expect((await incr(s, hitKey('k', 'c'))).current).toBe(3); // refused, not recorded
    s.refund(hitKey('k', 'c')); // nothing to take back
    s.refund(hitKey('other', 'a')); // another bucket: nothing
    expect((await incr(s, hitKey('k', 'd'))).current).toBe(3);
    s.refund(hitKey('k', 'a'));
    s.refund(hitKey('k', 'a')); // twice is once
    const after = await incr(s, hitKey('k', 'e'));
    expect(after.current).toBe(2);
    clock.tick(2000);
    s.refund(hitKey('k', 'e')); // its window is over: nothing left to take back
    expect((await incr(s, hitKey('k', 'f'))).current).toBe(1);
  });
}

test('SlidingWindowStore: refunding the oldest hit moves the next free slot to the one after it', async () => {
  const clock = fakeClock();
  const s = new SlidingWindowStore({ clock: clock.read });
  await incr(s, hitKey('k', 'a'));
  clock.tick(300);
  await incr(s, hitKey('k', 'b'));
  s.refund(hitKey('k', 'a'));
  expect(await incr(s, hitKey('k', 'c'))).toEqual({ current: 2, ttl: 1000 }); // b at 300 frees at 1300
});

const CHECK = `/v1/checks/${SEEDED_API_CHECK_ID}`;
/** Refused requests of every kind, each with the demo key: 404, 400, 403, 404, 400. */
const REFUSED: InjectOptions[] = [
  { url: '/v1/runtimes/2024.9' },
  { url: '/v1/runtimes/2025.04', headers: { ...AUTH, 'x-service-account': 'acme' } },
  { url: '/v1/runtimes/2025.04', headers: { ...AUTH, 'x-service-account': SECOND_ACCOUNT_ID } },
  { url: '/v1/checks/00000000-0000-4000-8000-000000000000' },
  { method: 'PUT', url: CHECK, payload: { groupOrder: -1 } },
];
const send = async (app: FastifyInstance, o: InjectOptions) => (await app.inject({ headers: { ...AUTH }, ...o })).statusCode;
const valid = (app: FastifyInstance) => send(app, { url: '/v1/runtimes/2025.04' });

async function start(countRefused: boolean, algorithm: 'fixed' | 'sliding'): Promise<[FastifyInstance, FakeClock]> {
  const clock = fakeClock();
  const app = await service([], {
    rateLimitMax: 3,
    rateLimitWindowS: 60,
    rateLimitAlgorithm: algorithm,
    rateLimitCountRefused: countRefused,
    clock: clock.read,
  });
  return [app, clock];
}

for (const algorithm of ['fixed', 'sliding'] as const) {
  test(`count refused on (${algorithm}): refused requests use up the budget`, async () => {
    const [app] = await start(true, algorithm);
    expect(await Promise.all(REFUSED.slice(0, 3).map((o) => send(app, o)))).toEqual([404, 400, 403]);
    expect(await valid(app)).toBe(429);
    await app.close();
  });

  test(`count refused off (${algorithm}): only 2xx count, 429s do not move the window`, async () => {
    const [app, clock] = await start(false, algorithm);
    for (const o of REFUSED) expect(await send(app, o)).not.toBe(429);
    const first = await app.inject({ url: '/v1/runtimes/2025.04', headers: { ...AUTH } });
    expect([first.statusCode, first.headers['x-ratelimit-remaining']]).toEqual([200, '2']);
    clock.tick(10_000);
    expect([await valid(app), await valid(app)]).toEqual([200, 200]);
    // The budget is used up; more requests, refused ones included, are all 429 and are not recorded.
    for (let i = 0; i < 5; i++) {
      expect(await valid(app)).toBe(429);
      expect(await send(app, REFUSED[0])).toBe(429);
      clock.tick(5_000);
    }
    // t = 60 s since the first served request: its slot is free (fixed: the window of the first hit ended).
    clock.tick(60_000 - 10_000 - 25_000);
    expect(await valid(app)).toBe(200);
    await app.close();
  });
}

test("count refused off: a route's own limit refunds too (20 refused on the runtime list, then 20 served)", async () => {
  const [app] = await start(false, 'fixed');
  const wrongAccount = { ...AUTH, 'x-service-account': SECOND_ACCOUNT_ID };
  for (let i = 0; i < 25; i++) expect(await send(app, { url: '/v1/runtimes', headers: wrongAccount })).toBe(403);
  let served = 0;
  while ((await send(app, { url: '/v1/runtimes' })) === 200) served++;
  expect(served).toBe(20);
  await app.close();
});

test('RATE_LIMIT_COUNT_REFUSED: on (default) or off, read into the service options', () => {
  expect(readConfig({}).rateLimitCountRefused).toBe(true);
  expect(readConfig({ RATE_LIMIT_COUNT_REFUSED: 'on' }).rateLimitCountRefused).toBe(true);
  expect(readConfig({ RATE_LIMIT_COUNT_REFUSED: 'off' }).rateLimitCountRefused).toBe(false);
  expect(() => readConfig({ RATE_LIMIT_COUNT_REFUSED: 'no' })).toThrow(/^RATE_LIMIT_COUNT_REFUSED: /);
});
