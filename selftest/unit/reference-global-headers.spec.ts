// RATE_LIMIT_HEADERS: which limit a route with a limit of its own (the runtime list, 20 / 10 s) reports in
// its x-ratelimit-* headers. `route` (the default): its own. `global`: the key's global window, which
// the route then counts in too, while it still refuses after its own 20 (issue 23: a correct service).
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { readConfig } from '../../reference/service/config';
import { call, fakeClock, service } from './reference-testing';

const limits = (h: Record<string, unknown>) => [h['x-ratelimit-limit'], h['x-ratelimit-remaining'], h['x-ratelimit-reset']].map(String);

async function start(headers: 'route' | 'global', max = 600, countRefused = true): Promise<FastifyInstance> {
  const clock = fakeClock();
  return service([], { rateLimitMax: max, rateLimitWindowS: 60, rateLimitHeaders: headers, rateLimitCountRefused: countRefused, clock: clock.read });
}

test('route (default): the runtime list reports its own limit, and is not counted in the global window', async () => {
  const app = await start('route');
  expect(limits((await call(app, { url: '/v1/runtimes' })).headers)).toEqual(['20', '19', '10']);
  expect(limits((await call(app, { url: '/v1/runtimes/2025.04' })).headers)).toEqual(['600', '599', '60']);
  await app.close();
});

test('global: the runtime list reports the global window (limit, remaining, reset) and still refuses after its own 20', async () => {
  const app = await start('global');
  for (let i = 1; i <= 20; i++) {
    const a = await call(app, { url: '/v1/runtimes' });
    expect([a.status, ...limits(a.headers)]).toEqual([200, '600', String(600 - i), '60']);
  }
  const refused = await call(app, { url: '/v1/runtimes' });
  // Refused by the route's own limit; the global window has room (a refused request counts by default).
  expect([refused.status, ...limits(refused.headers), refused.headers['retry-after']]).toEqual([429, '600', '579', '60', '10']);
  expect(refused.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests', attributes: { limit: 20, windowSeconds: 10 } });
  // The other routes share that window.
  expect(limits((await call(app, { url: '/v1/runtimes/2025.04' })).headers)).toEqual(['600', '578', '60']);
  await app.close();
});

test('global: a key over the global limit is refused on the runtime list too, with the global window in its headers', async () => {
  const app = await start('global', 3);
  for (let i = 0; i < 3; i++) expect((await call(app, { url: '/v1/runtimes/2025.04' })).status).toBe(200);
  const refused = await call(app, { url: '/v1/runtimes' });
  expect([refused.status, ...limits(refused.headers), refused.headers['retry-after']]).toEqual([429, '3', '0', '60', '60']);
  expect(refused.body).toMatchObject({ attributes: { limit: 3, windowSeconds: 60 } });
  await app.close();
});

test('global with refused requests not counted: the route refusal is refunded from the global window too', async () => {
  const app = await start('global', 600, false);
  for (let i = 0; i < 20; i++) await call(app, { url: '/v1/runtimes' });
  expect(limits((await call(app, { url: '/v1/runtimes' })).headers)).toEqual(['600', '579', '60']);
  // The 429 was taken back: the next request leaves 579 again.
  expect(limits((await call(app, { url: '/v1/runtimes/2025.04' })).headers)).toEqual(['600', '579', '60']);
  await app.close();
});

test('RATE_LIMIT_HEADERS: route (default) or global, read into the service options', () => {
  expect(readConfig({}).rateLimitHeaders).toBe('route');
  expect(readConfig({ RATE_LIMIT_HEADERS: 'global' }).rateLimitHeaders).toBe('global');
  expect(() => readConfig({ RATE_LIMIT_HEADERS: 'both' })).toThrow(/^RATE_LIMIT_HEADERS: expected "route" or "global", got "both"$/);
});
