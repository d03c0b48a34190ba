// The reference service's authentication matrix: key first (401), then the account header (401/400/403).
import { expect, test } from '@playwright/test';
import { AUTH, AUTH2, call, DEMO_ACCOUNT_ID, DEMO_KEY, SECOND_ACCOUNT_ID, SEEDED_API_CHECK_ID, service } from './reference-testing';
import { readConfig } from '../../reference/service/config';

const URL = '/v1/runtimes/2025.04';
const acct = { 'x-service-account': DEMO_ACCOUNT_ID };

const cases: Array<[string, Record<string, string>, number]> = [
  ['valid bearer key and account', { ...AUTH }, 200],
  ['scheme in lower case', { authorization: `bearer ${DEMO_KEY}`, ...acct }, 200],
  ['no Authorization', { ...acct }, 401],
  ['empty Authorization', { authorization: '', ...acct }, 401],
  ['Basic scheme', { authorization: `Basic ${DEMO_KEY}`, ...acct }, 401],
  ['Token scheme', { authorization: `Token ${DEMO_KEY}`, ...acct }, 401],
  ['bare key', { authorization: DEMO_KEY, ...acct }, 401],
  ['Bearer without key', { authorization: 'Bearer', ...acct }, 401],
  ['unknown key', { authorization: 'Bearer mon_demo_00000000000000000000000000000000', ...acct }, 401],
  ['malformed key', { authorization: 'Bearer !!', ...acct }, 401],
  ['three parts', { authorization: `Bearer ${DEMO_KEY} extra`, ...acct }, 401],
  ['no account header', { authorization: `Bearer ${DEMO_KEY}` }, 401],
  ['account not a GUID', { authorization: `Bearer ${DEMO_KEY}`, 'x-service-account': 'acme' }, 400],
  ['account of another key', { authorization: `Bearer ${DEMO_KEY}`, 'x-service-account': SECOND_ACCOUNT_ID }, 403],
  ['unknown GUID', { authorization: `Bearer ${DEMO_KEY}`, 'x-service-account': '00000000-0000-4000-8000-000000000000' }, 403],
];

for (const [name, headers, status] of cases) {
  test(`auth: ${name} -> ${status}`, async () => {
    const app = await service();
    const r = await call(app, { url: URL, headers });
    expect(r.status).toBe(status);
    expect(r.type).toMatch(/^application\/json/);
    if (status !== 200) {
      expect(r.body).toEqual({ statusCode: status, error: expect.any(String), message: expect.any(String) });
      expect(r.text).not.toContain(DEMO_KEY);
    }
    await app.close();
  });
}

test('auth: the account header name is configurable', async () => {
  const app = await service([], { accountHeader: 'X-Acme-Account' });
  expect((await call(app, { url: URL, headers: { authorization: `Bearer ${DEMO_KEY}`, 'x-acme-account': DEMO_ACCOUNT_ID } })).status).toBe(200);
  expect((await call(app, { url: URL })).status).toBe(401);
  await app.close();
});

test('auth: the spec documents need no credentials', async () => {
  const app = await service();
  for (const url of ['/openapi.json', '/swagger.json']) expect((await call(app, { url, headers: {} })).status).toBe(200);
  await app.close();
});

test('auth: REF_API_KEY and REF_ACCOUNT_ID replace the demo credentials, and the seeded checks go with them', async () => {
  const { accounts } = readConfig({ REF_API_KEY: 'anykey123', REF_ACCOUNT_ID: '6F1D2C3B-4A5E-4F60-8B7C-9D0E1F2A3B4D' });
  const app = await service([], { accounts });
  const mine = { authorization: 'Bearer anykey123', 'x-service-account': '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4d' };
  expect((await call(app, { url: URL, headers: mine })).status).toBe(200);
  expect((await call(app, { url: `/v1/checks/${SEEDED_API_CHECK_ID}`, headers: mine })).status).toBe(200);
  expect((await call(app, { url: URL, headers: { ...AUTH } })).status).toBe(401);
  // The second account keeps its demo key.
  expect((await call(app, { url: URL, headers: { ...AUTH2 } })).status).toBe(200);
  await app.close();
});
