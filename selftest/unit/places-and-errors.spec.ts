/** Places from the target's spec, and the error checks: credentials sent, once per exchange, with the place stamped. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type TestInfo } from '@playwright/test';
import { credentialsSent, checkErrorResponse } from '../../support/checks/error-checks';
import { ERROR_CASES, errorRequest } from '../../support/checks/error-cases';
import { Verdict } from '../../support/checks/verdict';
import type { Exchange } from '../../support/http/exchange';
import type { Config } from '../../support/run/config';
import { buildSpec } from '../../support/spec/spec';
import { parseSpecText } from '../../support/spec/spec-source';
import { placeOf, resolveTarget } from '../../support/spec/target';
import { PUBLISHED_SPEC_FILE as PUBLISHED, publishedSpec } from './published-spec';

const config = { baseUrl: 'https://api.example.com', checkId: 'c1' } as Config;
const load = async (file: string) => buildSpec(parseSpecText(readFileSync(file, 'utf8'), file), file);
const REFERENCE = join(__dirname, '../../specs/openapi.json');

test('the reference spec: the runtime collection is the one other GET, and each operation has its place', async () => {
  const target = resolveTarget(await load(REFERENCE), config);
  expect(target.collectionGets.map((o) => o.path)).toEqual(['/v1/runtimes']);
  expect([target.runtimeOp, target.readCheckOp, target.updateOp, target.collectionGets[0]].map((op) => placeOf(target, op))).toEqual([
    'runtime',
    'check-read',
    'check-update',
    'GET /v1/runtimes',
  ]);
});

test('the published spec: the collections beside the runtime and check operations, nothing else', async () => {
  test.skip(!existsSync(PUBLISHED), 'the published spec fixture is missing');
  const target = resolveTarget(await publishedSpec(), config);
  expect(target.collectionGets.map((o) => o.path)).toEqual(['/v1/runtimes', '/v1/checks']);
});

test('a collection that needs a parameter the suite lacks is left out', async () => {
  const spec = await buildSpec(
    {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/v1/runtimes/{id}': { get: { responses: { 200: { description: 'ok' } } } },
        '/v1/runtimes': {
          get: { parameters: [{ in: 'query', name: 'page', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'ok' } } },
        },
      },
    },
    'inline',
  );
  expect(resolveTarget(spec, config).collectionGets).toEqual([]);
});

test('the credentials an Authorization header carried, in every scheme', () => {
  const key = 'mon_demo_4f7c1e9a2b6d4e0f8a3c5b7d9e1f2a4c';
  const ex = (authorization?: string) => ({ requestHeaders: (authorization === undefined ? {} : { Authorization: authorization }) as Record<string, string> });
  expect(credentialsSent(ex(`Bearer ${key}`))).toEqual([key]);
  expect(credentialsSent(ex(`Token ${key}`))).toEqual([key]);
  expect(credentialsSent(ex(key))).toEqual([key]);
  expect(credentialsSent(ex(`Basic ${Buffer.from(`${key}:`).toString('base64')}`))).toContain(key);
  expect(credentialsSent(ex(`Bearer ${key.slice(0, 8)} ${key.slice(8)}`))).toContain(key);
  expect(credentialsSent(ex('Bearer '))).toEqual([]);
  expect(credentialsSent(ex())).toEqual([]);
});

function fakeInfo(): TestInfo {
  return { annotations: [] as TestInfo['annotations'] } as TestInfo;
}

const errorExchange = (over: Partial<Exchange> = {}): Exchange => ({
  method: 'GET',
  url: 'http://x/v1/runtimes/1999.01',
  requestHeaders: { authorization: 'Bearer mon_demo_4f7c1e9a2b6d4e0f8a3c5b7d9e1f2a4c' },
  status: 404,
  headers: {},
  text: '{"statusCode":404,"error":"Not found"}',
  json: { statusCode: 404, error: 'Not found' },
  contentType: 'application/json',
  ms: 1,
  ...over,
});

test('an error response is checked once, stamped with the place given', () => {
  const verdict = new Verdict(fakeInfo(), false);
  const ex = errorExchange();
  checkErrorResponse({ verdict: verdict.at({ place: 'runtime', valueClass: 'never-existed' }), exchange: ex, sentKeys: [] });
  checkErrorResponse({ verdict, exchange: ex });
  expect(verdict.failures.map((f) => [f.clause, f.place, f.valueClass])).toEqual([['ERR-1', 'runtime', 'never-existed']]);
  expect(verdict.tried.map((t) => t.clause).sort()).toEqual(['AUTH-7', 'ERR-1', 'ERR-3', 'ERR-4']);
});

test('a key echoed back fails AUTH-7, whatever scheme it was sent in', () => {
  const key = 'mon_demo_4f7c1e9a2b6d4e0f8a3c5b7d9e1f2a4c';
  const verdict = new Verdict(fakeInfo(), false);
  const text = `{"statusCode":401,"error":"Unauthorized","message":"bad key ${key}"}`;
  checkErrorResponse({ verdict, exchange: errorExchange({ status: 401, requestHeaders: { authorization: `Token ${key}` }, text, json: JSON.parse(text) }) });
  expect(verdict.failures.map((f) => f.clause)).toEqual(['AUTH-7']);
});

test('each error case names its place and class, and skips without CHECK_ID', async () => {
  const target = resolveTarget(await load(REFERENCE), config);
  for (const c of ERROR_CASES) {
    const r = errorRequest(c, target, { ...config, second: { apiKey: 'mon_second', accountId: '66666666-7777-4888-9999-aaaaaaaaaaaa' } }, false);
    expect('path' in r && r.path.startsWith('/v1/checks/'), c.id).toBe(true);
    // Another account's check is asked for with that account's own credentials, when there is one.
    if (c.foreign) {
      expect('headers' in r && r.headers).toMatchObject({ authorization: 'Bearer mon_second' });
      expect(errorRequest(c, target, { ...config, second: undefined })).toMatchObject({ skip: expect.stringMatching(/SECOND_API_KEY/) });
    }
    const none = errorRequest(c, target, { ...config, checkId: undefined });
    if (!c.sentId) expect('skip' in none && none.skip).toMatch(/CHECK_ID/);
  }
  expect(new Set(ERROR_CASES.map((c) => `${c.place}:${c.id}`)).size).toBe(ERROR_CASES.length);
});
