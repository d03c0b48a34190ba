// Odd requests get a 4xx JSON error whose statusCode equals the status; nothing answers 5xx.
import { expect, test } from '@playwright/test';
import { AUTH, call, SEEDED_API_CHECK_ID, service } from '../../reference/testing';

const CHECK = `/v1/checks/${SEEDED_API_CHECK_ID}`;
const json = { ...AUTH, 'content-type': 'application/json' };

const CASES: Array<[string, Parameters<typeof call>[1], number]> = [
  ['malformed JSON', { method: 'PUT', url: CHECK, headers: json, payload: '{"name": ' }, 400],
  ['JSON null', { method: 'PUT', url: CHECK, headers: json, payload: 'null' }, 400],
  ['JSON string', { method: 'PUT', url: CHECK, headers: json, payload: '"x"' }, 400],
  ['empty JSON body', { method: 'PUT', url: CHECK, headers: json, payload: '' }, 400],
  ['text/plain', { method: 'PUT', url: CHECK, headers: { ...AUTH, 'content-type': 'text/plain' }, payload: '{}' }, 415],
  ['form body', { method: 'PUT', url: CHECK, headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' }, 415],
  ['2 MB JSON', { method: 'PUT', url: CHECK, headers: json, payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) }, 413],
  ['10 MB body', { method: 'PUT', url: CHECK, headers: json, payload: 'x'.repeat(10 * 1024 * 1024) }, 413],
  ['unknown path', { url: '/v2/runtimes/2025.04' }, 404],
  ['unknown path under v1', { url: '/v1/nothing' }, 404],
  ['DELETE a runtime', { method: 'DELETE', url: '/v1/runtimes/2025.04' }, 404],
  ['POST a check', { method: 'POST', url: CHECK, headers: json, payload: '{}' }, 404],
  ['PATCH a check', { method: 'PATCH', url: CHECK, headers: json, payload: '{}' }, 404],
  ['bad percent encoding', { url: '/v1/runtimes/%E0%A4%A' }, 404],
  ['encoded dot segments', { url: '/v1/runtimes/%2E%2E%2F%2E%2E%2Fopenapi.json' }, 404],
  ['double slash', { url: '//v1//runtimes//2025.04' }, 404],
  ['deep prototype key', { method: 'PUT', url: CHECK, headers: json, payload: '{"__proto__": {"x": 1}}' }, 400],
];

for (const [name, opts, status] of CASES) {
  test(`robustness: ${name} -> ${status}`, async () => {
    const app = await service();
    const r = await call(app, opts);
    expect(r.status).toBe(status);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.body).toEqual({ statusCode: status, error: expect.any(String), message: expect.any(String) });
    await app.close();
  });
}

test('robustness: wrong types in every property never 5xx', async () => {
  const app = await service();
  const values = [null, true, 0, -1, 1.5, '', 'x', [], [null], {}, { a: 1 }, 'x'.repeat(5000)];
  for (const key of [
    'name',
    'locations',
    'frequency',
    'frequencyOffset',
    'groupOrder',
    'runtimeId',
    'checkType',
    'retryStrategy',
    'alertChannelSubscriptions',
    'environmentVariables',
    'privateLocations',
    'tags',
    'description',
    'triggerIncident',
  ]) {
    for (const v of values) {
      const r = await call(app, { method: 'PUT', url: CHECK, payload: { [key]: v } });
      expect(r.status, `${key}=${JSON.stringify(v).slice(0, 20)}`).toBeLessThan(500);
      expect(r.body.statusCode ?? 200).toBe(r.status);
    }
  }
  await app.close();
});
