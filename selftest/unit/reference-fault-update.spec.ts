// accept / refuse / leak: the update faults of one body pattern or one property. Each breaks its rule
// for its value on its check type, and the same service stays correct for every neighbouring value.
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { AUTH, call, getCheck, put, row, SEEDED_API_CHECK_ID as API, SEEDED_BROWSER_CHECK_ID as BROWSER, service } from './reference-testing';

let app: FastifyInstance | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});
const start = async (faults: string[]) => (app = await service(faults));

test('accept:API:<locations> lets exactly that invalid value through on API checks, applied as sent', async () => {
  const a = await start([row('accept', 'API', { locations: ['US-EAST-1'] })]);
  const r = await put(a, { locations: ['US-EAST-1'] }, API);
  expect(r.status).toBe(200);
  expect((await getCheck(a, API)).locations).toEqual(['US-EAST-1']);
  // Every problem of a matching body is ignored, also one in another property.
  expect((await put(a, { locations: ['US-EAST-1'], groupOrder: -1 }, API)).status).toBe(200);
  expect((await getCheck(a, API)).groupOrder).toBe(-1);
  // Another check type, another value, a pattern only partly present: still refused.
  expect((await put(a, { locations: ['US-EAST-1'] }, BROWSER)).status).toBe(400);
  expect((await put(a, { locations: ['Us-East-1'] }, API)).status).toBe(400);
  expect((await put(a, { locations: ['US-EAST-1', 'us-east-1'] }, API)).status).toBe(400);
  expect((await put(a, { groupOrder: -1 }, API)).status).toBe(400);
});

test('accept:any:<frequency, offset> lets one frequencyOffset cell through on every check type', async () => {
  const a = await start([row('accept', 'any', { frequency: 5, frequencyOffset: 51 })]);
  for (const id of [API, BROWSER]) {
    expect((await put(a, { frequency: 5, frequencyOffset: 51, name: 'x' }, id)).status).toBe(200);
    expect(await getCheck(a, id)).toMatchObject({ frequency: 5, frequencyOffset: 51 });
    expect((await put(a, { frequency: 5, frequencyOffset: 52 }, id)).status).toBe(400);
    expect((await put(a, { frequency: 10, frequencyOffset: 101 }, id)).status).toBe(400);
    expect((await put(a, { frequencyOffset: 51 }, id)).status).toBe(400); // stored frequency is 5, but the pattern wants it sent
  }
});

test('accept:BROWSER:<frequency 0> lets frequency 0 through on browser checks only', async () => {
  const a = await start([row('accept', 'BROWSER', { frequency: 0, frequencyOffset: 10 })]);
  expect((await put(a, { frequency: 0, frequencyOffset: 10 }, BROWSER)).status).toBe(200);
  expect((await put(a, { frequency: 0, frequencyOffset: 10, checkType: 'BROWSER' }, API)).status).toBe(400);
  expect((await put(a, { frequency: 0, frequencyOffset: 20 }, BROWSER)).status).toBe(400);
});

test('refuse:API:<frequency, offset> refuses exactly that valid cell on API checks, with the 400 body and no change', async () => {
  const a = await start([row('refuse', 'API', { frequency: 5, frequencyOffset: 50 })]);
  const before = await getCheck(a, API);
  const r = await put(a, { frequency: 5, frequencyOffset: 50, name: 'must not stick' }, API);
  expect(r.status).toBe(400);
  expect(r.body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
  expect(await getCheck(a, API)).toEqual(before);
  expect((await put(a, { frequency: 5, frequencyOffset: 50 }, BROWSER)).status).toBe(200);
  expect((await put(a, { frequency: 5, frequencyOffset: 49 }, API)).status).toBe(200);
  expect((await put(a, { frequency: 10, frequencyOffset: 50 }, API)).status).toBe(200);
});

test('refuse: patterns compare deep: a nested object or an array must be equal, not merely similar', async () => {
  const a = await start([row('refuse', 'any', { retryStrategy: { type: 'FIXED' } }), row('refuse', 'any', { tags: ['a', 'b'] })]);
  expect((await put(a, { retryStrategy: { type: 'FIXED' } })).status).toBe(400);
  expect((await put(a, { retryStrategy: { type: 'FIXED', maxRetries: 2 } })).status).toBe(200);
  expect((await put(a, { tags: ['a', 'b'] })).status).toBe(400);
  expect((await put(a, { tags: ['b', 'a'] })).status).toBe(200);
  expect((await put(a, { tags: ['a'] })).status).toBe(200);
});

// [property, a valid value to leak, what makes the body invalid]
const LEAKS: Array<[string, unknown, Record<string, unknown>]> = [
  ['name', 'leaked name', { groupOrder: 1.5 }],
  ['activated', false, { groupOrder: 1.5 }],
  ['locations', ['af-south-1'], { groupOrder: 1.5 }],
  ['tags', ['leaked'], { locations: [] }],
  ['alertSettings', { escalationType: 'TIME_BASED' }, { groupOrder: 1.5 }],
  ['retryStrategy', { type: 'LINEAR', maxRetries: 5 }, { frequencyOffset: 0 }],
  ['retryStrategy', null, { frequencyOffset: 0 }],
  ['groupOrder', 7, { frequencyOffset: 0 }],
  ['description', 'leaked', { checkType: 'SMTP' }],
  ['scriptPath', null, { frequency: 10, frequencyOffset: 101 }],
];

for (const [property, value, invalid] of LEAKS) {
  test(`leak:${property} stores ${JSON.stringify(value)} from a rejected body, and nothing else`, async () => {
    const a = await start([`leak:${property}`]);
    const before = await getCheck(a);
    const others = { name: 'must not stick', muted: true, tags: ['must-not-stick'] };
    const body = { ...others, ...invalid, [property]: value };
    expect((await put(a, body)).status).toBe(400);
    expect(await getCheck(a)).toEqual({ ...before, [property]: value });
    // A rejected body without the property leaks nothing; valid updates are untouched.
    expect((await put(a, { ...invalid, muted: true })).status).toBe(400);
    expect((await getCheck(a)).muted).toBe(false);
    expect((await put(a, { muted: true })).status).toBe(200);
  });
}

test.describe('take-body:<shape>: a body that is no JSON object read as {}', () => {
  const raw = (a: FastifyInstance, payload: string, type = 'application/json') =>
    call(a, { method: 'PUT', url: `/v1/checks/${API}`, headers: { ...AUTH, 'content-type': type }, payload });
  const SENT: Record<string, [string, string?]> = { 'not-json': ['{"name": '], empty: [''], array: ['[]'], text: ['{}', 'text/plain'] };

  test('without the fault each shape is refused (4xx with the error body); with it, only that shape is taken', async () => {
    const correct = await start([]);
    for (const [payload, type] of Object.values(SENT)) {
      const r = await raw(correct, payload, type);
      expect([400, 415], payload).toContain(r.status);
      expect(r.body).toMatchObject({ statusCode: r.status });
    }
    await correct.close();
    for (const [shape, [payload, type]] of Object.entries(SENT)) {
      const a = await start([`take-body:${shape}`]);
      const before = await getCheck(a, API);
      expect((await raw(a, payload, type)).status, shape).toBe(200);
      expect(await getCheck(a, API)).toMatchObject({ name: before.name, frequency: before.frequency });
      for (const [other, [p, t]] of Object.entries(SENT)) if (other !== shape) expect((await raw(a, p, t)).status, `${shape}, ${other}`).not.toBe(200);
      expect((await put(a, { name: 'still validated', groupOrder: -1 }, API)).status).toBe(400);
      await a.close();
      app = undefined;
    }
  });
});

test('unknown-check:<place>:<id-shape>:<answer> makes up or fails one shape of missing id on one route only', async () => {
  const a = await start(['unknown-check:check-update:guid:found', 'unknown-check:check-read:other:fail']);
  const guid = '00000000-0000-4000-8000-000000000000';
  expect((await put(a, {}, guid)).status).toBe(200);
  // The read of another unknown GUID is untouched (the update above stored the check it made up).
  expect((await call(a, { url: '/v1/checks/00000000-0000-4000-8000-000000000001' })).status).toBe(404);
  expect((await call(a, { url: '/v1/checks/not-a-check-id' })).status).toBe(500);
  expect((await put(a, {}, 'not-a-check-id')).status).toBe(404);
  expect((await getCheck(a, API)).id).toBe(API);
});
