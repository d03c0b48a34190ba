// The cases a careful tester tries against the check update, with no fault injected: each refused
// value is a 400 with the JSON error body and stores nothing; each allowed one is a 200 that reads back.
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { AUTH, call, getCheck, put, SEEDED_API_CHECK_ID, SEEDED_BROWSER_CHECK_ID, service } from './reference-testing';

type Body = Record<string, unknown>;
type Case = [label: string, body: Body, id?: string];

const REFUSED: Case[] = [
  ...['US-EAST-1', 'Us-East-1', 'us-east-4', 'eu-west-4', 'us-east-1 ', ' us-east-1', 'useast1'].map((l): Case => [
    `location ${JSON.stringify(l)}`,
    { locations: [l] },
  ]),
  ['locations []', { locations: [] }],
  ['locations a string', { locations: 'us-east-1' }],
  ['locations an object', { locations: {} }],
  ['locations with one bad item', { locations: ['us-east-1', 'mars-1'] }],
  ...['2024.9', '2024.13', '2026.4', ' 2024.09', '2024.09 ', '2024-09', '2021.01'].map((r): Case => [`runtimeId ${JSON.stringify(r)}`, { runtimeId: r }]),
  ['runtimeId the number 2024.09', { runtimeId: 2024.09 }],
  ...['api', 'Api', 'bRoWsEr', 'API ', ' API', 'SMTP', '', 'PLAYWRIGHT_TEST'].map((t): Case => [`checkType ${JSON.stringify(t)}`, { checkType: t }]),
  ...[-1, 1.5, '1', true, [], {}].map((g): Case => [`groupOrder ${JSON.stringify(g)}`, { groupOrder: g }]),
  ['description of 501 "é"', { description: 'é'.repeat(501) }],
  ['description of 501 "😀"', { description: '😀'.repeat(501) }],
  ['description of 501 ASCII', { description: 'd'.repeat(501) }],
  ['description a number', { description: 5 }],
  ...[0, -1, 1.5, '5', null, true, [], {}].map((o): Case => [`frequencyOffset ${JSON.stringify(o)}`, { frequencyOffset: o }]),
  ['frequency 0 with offset 10 on the browser check', { frequency: 0, frequencyOffset: 10 }, SEEDED_BROWSER_CHECK_ID],
  ['frequency 0 alone on the browser check', { frequency: 0 }, SEEDED_BROWSER_CHECK_ID],
  ['checkType BROWSER with frequency 0 on the API check', { checkType: 'BROWSER', frequency: 0, frequencyOffset: 10 }],
  ['frequency 0 with offset 1 (the stored one)', { frequency: 0 }],
  ...['activated', 'muted', 'doubleCheck', 'shouldFail', 'useGlobalAlertSettings', 'runParallel'].flatMap((k): Case[] => [
    [`${k} "true"`, { [k]: 'true' }],
    [`${k} 1`, { [k]: 1 }],
    [`${k} null`, { [k]: null }],
  ]),
];

const ACCEPTED: Case[] = [
  ['groupOrder 0', { groupOrder: 0 }],
  ['groupOrder null', { groupOrder: null }],
  ['groupOrder 2^31', { groupOrder: 2 ** 31 }],
  ['groupOrder MAX_SAFE_INTEGER', { groupOrder: Number.MAX_SAFE_INTEGER }],
  ['description of 500 "é"', { description: 'é'.repeat(500) }],
  ['description of 500 "😀"', { description: '😀'.repeat(500) }],
  ['description ""', { description: '' }],
  ['description null', { description: null }],
  ['duplicate locations', { locations: ['us-east-1', 'us-east-1'] }],
  ['checkType API with frequency 0 on the browser check', { checkType: 'API', frequency: 0, frequencyOffset: 10 }, SEEDED_BROWSER_CHECK_ID],
  ['every location', { locations: ['us-east-1', 'af-south-1', 'ap-northeast-3'] }],
];

let app: FastifyInstance;
test.beforeEach(async () => {
  app = await service();
});
test.afterEach(async () => {
  await app.close();
});

test('update cases: each refused body is a 400 with the error body, and nothing is stored', async () => {
  for (const [label, body, id = SEEDED_API_CHECK_ID] of REFUSED) {
    const before = await getCheck(app, id);
    const r = await put(app, { name: 'must not stick', ...body }, id);
    expect.soft(r.status, label).toBe(400);
    expect.soft(r.body, label).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
    expect.soft(await getCheck(app, id), label).toEqual(before);
  }
});

test('update cases: each accepted body is a 200 and reads back', async () => {
  for (const [label, body, id = SEEDED_API_CHECK_ID] of ACCEPTED) {
    const r = await put(app, body, id);
    expect.soft(r.status, label).toBe(200);
    expect.soft(await getCheck(app, id), label).toMatchObject(body);
  }
});

const RAW: Array<[string, Record<string, string>, string | undefined]> = [
  ['not JSON', { 'content-type': 'application/json' }, '{"name": "x",'],
  ['a JSON array', { 'content-type': 'application/json' }, '[{"name": "x"}]'],
  ['empty with a JSON type', { 'content-type': 'application/json' }, ''],
  ['no body at all', {}, undefined],
  ['text/plain carrying JSON', { 'content-type': 'text/plain' }, '{"name": "x"}'],
  ['no content type, JSON text', { 'content-type': '' }, '{"name": "x"}'],
  ['JSON true', { 'content-type': 'application/json' }, 'true'],
  ['JSON with a trailing garbage', { 'content-type': 'application/json' }, '{"name": "x"} x'],
];

test('update cases: bodies that are no JSON object are a 4xx with the JSON error body, never 5xx', async () => {
  const before = await getCheck(app);
  for (const [label, headers, payload] of RAW) {
    const r = await call(app, { method: 'PUT', url: `/v1/checks/${SEEDED_API_CHECK_ID}`, headers: { ...AUTH, ...headers }, payload });
    expect.soft(r.status, label).toBeGreaterThanOrEqual(400);
    expect.soft(r.status, label).toBeLessThan(500);
    expect.soft(r.type, label).toMatch(/^application\/json/);
    expect.soft(r.body, label).toEqual({ statusCode: r.status, error: expect.any(String), message: expect.any(String) });
  }
  expect(await getCheck(app)).toEqual(before);
});

test('update cases: an unknown check id is 404 Not Found on read and update', async () => {
  for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', SEEDED_API_CHECK_ID.slice(0, -1)]) {
    for (const r of [await call(app, { url: `/v1/checks/${id}` }), await put(app, { name: 'x' }, id)]) {
      expect(r.status, id).toBe(404);
      expect(r.body, id).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
    }
  }
});
