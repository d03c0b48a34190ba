// The deprecated check update: whole-body validation, the frequencyOffset table, atomicity, 404s.
import { expect, test } from '@playwright/test';
import { checkUpdateSchema } from '../../reference/service/checks/schema';
import { UPDATE_PROPERTIES } from '../../reference/service/checks/vocabulary';
import { AUTH2, call, getCheck, put, SEEDED_API_CHECK_ID, SEEDED_BROWSER_CHECK_ID, service } from './reference-testing';

test('update: the body schema has exactly the properties the update applies', () => {
  expect(Object.keys(checkUpdateSchema().properties as object).sort()).toEqual([...UPDATE_PROPERTIES].sort());
});

test('update: a valid body is applied and read back', async () => {
  const app = await service();
  const body = {
    name: 'Renamed',
    activated: false,
    muted: true,
    locations: ['eu-west-1', 'af-south-1'],
    tags: ['a'],
    groupOrder: 0,
    groupId: null,
    runtimeId: '2024.09',
    description: 'd'.repeat(500),
    frequency: 120,
    frequencyOffset: 2,
    retryStrategy: { type: 'LINEAR', maxRetries: 3 },
    alertChannelSubscriptions: [{ alertChannelId: 1, activated: true }],
    privateLocations: ['office'],
    environmentVariables: [{ key: 'K', value: 'v' }],
    unknownProperty: 'ignored',
  };
  const r = await put(app, body, SEEDED_API_CHECK_ID, '?autoAssignAlerts=false');
  expect(r.status).toBe(200);
  const { unknownProperty: _unknown, ...applied } = body;
  expect(r.body).toMatchObject(applied);
  expect(r.body).not.toHaveProperty('unknownProperty');
  expect(await getCheck(app)).toEqual(r.body);
  expect((await put(app, { description: null, runtimeId: null, groupOrder: null })).status).toBe(200);
  await app.close();
});

const INVALID: Array<[string, Record<string, unknown>]> = [
  ['empty name', { name: '' }],
  ['name number', { name: 5 }],
  ['activated string', { activated: 'true' }],
  ['description 501', { description: 'd'.repeat(501) }],
  ['groupOrder -1', { groupOrder: -1 }],
  ['groupOrder 1.5', { groupOrder: 1.5 }],
  ['groupOrder string', { groupOrder: '1' }],
  ['unknown location', { locations: ['mars-1'] }],
  ['empty locations', { locations: [] }],
  ['locations null', { locations: null }],
  ['unknown runtime', { runtimeId: '2021.01' }],
  ['unknown checkType', { checkType: 'SMTP' }],
  ['checkType lowercase', { checkType: 'api' }],
  ['frequency 3', { frequency: 3 }],
  ['frequency "10"', { frequency: '10' }],
  ['offset "5"', { frequencyOffset: '5' }],
  ['offset 0', { frequencyOffset: 0 }],
  ['offset -1', { frequencyOffset: -1 }],
  ['offset 1.5', { frequencyOffset: 1.5 }],
  ['offset null', { frequencyOffset: null }],
  ['tags not array', { tags: 'a' }],
  ['subscription without activated', { alertChannelSubscriptions: [{ alertChannelId: 1 }] }],
  ['retryStrategy without type', { retryStrategy: {} }],
  ['privateLocations empty', { privateLocations: [] }],
  ['setupSnippetId string', { setupSnippetId: '1' }],
  ['body is an array', [] as unknown as Record<string, unknown>],
];

for (const [name, body] of INVALID) {
  test(`update: ${name} is rejected with 400 and changes nothing`, async () => {
    const app = await service();
    const before = await getCheck(app);
    // A valid name rides along: atomicity means it must not be applied either.
    const payload = Array.isArray(body) ? body : { name: 'must not stick', ...body };
    const r = await put(app, payload);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
    expect(await getCheck(app)).toEqual(before);
    await app.close();
  });
}

// [frequency, accepted offsets, rejected offsets] for the API check; the table of the document.
const TABLE: Array<[number, number[], number[]]> = [
  [0, [10, 20, 30], [1, 5, 11, 15, 40]],
  [1, [1, 5, 10], [0, 11]],
  [2, [1, 20], [21]],
  [10, [1, 100], [101]],
  [60, [1, 600], [601]],
  [120, [1, 2], [3]],
  [180, [3], [4]],
  [360, [6], [7]],
  [1440, [1, 24], [25]],
];

test('update: the frequencyOffset table', async () => {
  const app = await service();
  for (const [frequency, ok, bad] of TABLE) {
    for (const frequencyOffset of ok) expect((await put(app, { frequency, frequencyOffset })).status, `${frequency}/${frequencyOffset}`).toBe(200);
    for (const frequencyOffset of bad) expect((await put(app, { frequency, frequencyOffset })).status, `${frequency}/${frequencyOffset}`).toBe(400);
  }
  await app.close();
});

test('update: frequencyOffset is checked against the frequency after the update', async () => {
  const app = await service();
  expect((await put(app, { frequency: 10, frequencyOffset: 50 })).status).toBe(200);
  expect((await put(app, { frequency: 120 })).status).toBe(400); // 50 > ceil(120/60)
  expect((await getCheck(app)).frequency).toBe(10);
  expect((await put(app, { frequencyOffset: 101 })).status).toBe(400);
  await app.close();
});

test('update: frequency 0 only for API checks, also when the type changes in the same body', async () => {
  const app = await service();
  expect((await put(app, { frequency: 0, frequencyOffset: 10 }, SEEDED_BROWSER_CHECK_ID)).status).toBe(400);
  expect((await put(app, { frequency: 0, frequencyOffset: 10, checkType: 'BROWSER' })).status).toBe(400);
  expect((await put(app, { frequency: 0, frequencyOffset: 10, checkType: 'API' }, SEEDED_BROWSER_CHECK_ID)).status).toBe(200);
  await app.close();
});

test('update: unknown ids are 404, for both operations', async () => {
  const app = await service();
  for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '1', SEEDED_API_CHECK_ID.toUpperCase().replace(/-/g, '')]) {
    expect((await put(app, { name: 'x' }, id)).body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect((await call(app, { url: `/v1/checks/${id}` })).status).toBe(404);
  }
  // The seeded checks belong to the first account only.
  expect((await call(app, { url: `/v1/checks/${SEEDED_API_CHECK_ID}`, headers: { ...AUTH2 } })).status).toBe(404);
  await app.close();
});

test('update: autoAssignAlerts accepts only true and false', async () => {
  const app = await service();
  for (const q of ['true', 'false']) expect((await put(app, { name: 'x' }, SEEDED_API_CHECK_ID, `?autoAssignAlerts=${q}`)).status).toBe(200);
  for (const q of ['yes', '1', 'TRUE', '']) expect((await put(app, { name: 'x' }, SEEDED_API_CHECK_ID, `?autoAssignAlerts=${q}`)).status).toBe(400);
  await app.close();
});
