/**
 * The contract tests' HTTP client against a small server of our own: what it sends (credentials,
 * header overrides in any case, bodies), what it keeps (the exchange), how it meets an unexpected 429
 * (waits as told and retries; never when the test expects one), how it keeps its pace under the limit,
 * and that a failed connection never carries the key into an error.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ApiClient, paceBudget, retryAfterSeconds, type Credentials } from '../../support/http/client';
import { setRunDir } from '../../support/run/run-files';

const CREDENTIALS: Credentials = { apiKey: 'mon_unit_client_key_0123456789', accountId: 'acct-unit-1', accountHeader: 'X-Account-Id' };

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
/** What the server answers next, by path; a path not listed answers 200 with a JSON body. */
const answers = new Map<string, Array<{ status: number; headers?: Record<string, string>; body?: string }>>();

// The ledger is the process's: another file's tests in this worker name their own, so each test names this one.
const RUN_DIR = mkdtempSync(join(tmpdir(), 'client-unit-'));

test.beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const next = answers.get(req.url!.split('?')[0])?.shift();
      // A path under /slow is answered late: what was sent first comes back last.
      setTimeout(
        () => {
          res.writeHead(next?.status ?? 200, { 'content-type': 'application/json', ...next?.headers });
          res.end(next?.body ?? JSON.stringify({ ok: true }));
        },
        req.url!.startsWith('/slow') ? 200 : 0,
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((r) => server.close(r));
});

test.beforeEach(() => {
  setRunDir(RUN_DIR);
  seen.length = 0;
  answers.clear();
});

test('sends the configured key and account header, and JSON bodies with their content type', async () => {
  const client = new ApiClient(baseUrl, CREDENTIALS);
  const x = await client.call('PUT', '/v1/checks/1', { body: { name: 'n' }, query: { autoAssignAlerts: 'false' } });
  expect(seen[0]).toMatchObject({ method: 'PUT', url: '/v1/checks/1?autoAssignAlerts=false', body: '{"name":"n"}' });
  expect(seen[0].headers).toMatchObject({
    authorization: `Bearer ${CREDENTIALS.apiKey}`,
    'x-account-id': CREDENTIALS.accountId,
    'content-type': 'application/json',
  });
  expect(x).toMatchObject({ status: 200, json: { ok: true }, requestBody: '{"name":"n"}' });
  expect(client.log).toEqual([x]);
});

test('header overrides replace or remove a header whatever its case; a raw body goes as it is', async () => {
  const client = new ApiClient(baseUrl, CREDENTIALS);
  await client.call('POST', '/raw', { headers: { AUTHORIZATION: null, 'x-ACCOUNT-id': 'other' }, rawBody: '{"broken"' });
  expect(seen[0].headers.authorization).toBeUndefined();
  expect(seen[0].headers['x-account-id']).toBe('other');
  expect(seen[0].body).toBe('{"broken"');
  expect(seen[0].headers['content-type']).toBe('application/json');
  // A request without a body says nothing of its content type.
  await client.call('GET', '/plain');
  expect(seen[1].headers['content-type']).toBeUndefined();
});

test('a body that is not JSON is kept as text, with no parsed value', async () => {
  answers.set('/text', [{ status: 500, headers: { 'content-type': 'text/plain' }, body: 'oops' }]);
  const x = await new ApiClient(baseUrl, CREDENTIALS).call('GET', '/text');
  expect(x).toMatchObject({ status: 500, text: 'oops', json: undefined, contentType: 'text/plain' });
});

test('the exchanges are kept in the order they were sent, not the order they came back in', async () => {
  const client = new ApiClient(baseUrl, CREDENTIALS);
  await Promise.all(['/slow/1', '/fast/2', '/slow/3', '/fast/4'].map((p) => client.call('GET', p)));
  expect(client.log.map((e) => new URL(e.url).pathname)).toEqual(['/slow/1', '/fast/2', '/slow/3', '/fast/4']);
});

test('an unexpected 429 is waited out as Retry-After says and retried, with a note on the test', async () => {
  answers.set('/limited', [{ status: 429, headers: { 'retry-after': '0' }, body: '{}' }]);
  const client = new ApiClient(baseUrl, CREDENTIALS, test.info());
  const x = await client.call('GET', '/limited');
  expect(x.status).toBe(200);
  expect(seen).toHaveLength(2);
  expect(test.info().annotations.map((a) => a.type)).toContain('throttled');
});

test('a 429 the test expects is returned at once', async () => {
  answers.set('/limited', [{ status: 429, headers: { 'retry-after': '0' }, body: '{}' }]);
  const x = await new ApiClient(baseUrl, CREDENTIALS).call('GET', '/limited', { expect429: true });
  expect(x.status).toBe(429);
  expect(seen).toHaveLength(1);
});

test('keeps under its share of the window: the request over the budget waits for the window to turn', async () => {
  const limit = { max: 3, windowSeconds: 1 };
  expect(paceBudget(limit)).toBe(3);
  const client = new ApiClient(baseUrl, { ...CREDENTIALS, apiKey: `mon_unit_pace_${Date.now()}` }, test.info(), limit);
  const started = Date.now();
  for (let i = 0; i < 4; i++) await client.call('GET', '/paced');
  expect(Date.now() - started).toBeGreaterThanOrEqual(800);
  expect(test.info().annotations.map((a) => a.type)).toContain('paced');
});

test('the budget leaves a reserve for the rate-limit tests, at most 50', () => {
  expect(paceBudget({ max: 600, windowSeconds: 60 })).toBe(550);
  expect(paceBudget({ max: 60, windowSeconds: 10 })).toBe(48);
  expect(paceBudget({ max: 1, windowSeconds: 10 })).toBe(1);
});

test('a connection that fails names the request without the key', async () => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  const client = new ApiClient(`http://127.0.0.1:${port}`, CREDENTIALS);
  const error: Error = await client.call('GET', `/v1/x?key=${CREDENTIALS.apiKey}`).catch((e) => e);
  expect(error.message).toContain('GET http://127.0.0.1:');
  expect(error.message).not.toContain(CREDENTIALS.apiKey);
  expect(error.stack).toBe(error.message);
});

test('retry-after in seconds or as a date; a reset header in seconds or as an epoch time', () => {
  expect(retryAfterSeconds({ 'retry-after': '7' })).toBe(7);
  expect(retryAfterSeconds({ 'Retry-After': '2.2' })).toBe(3);
  const inTen = new Date(Date.now() + 10_000).toUTCString();
  expect(retryAfterSeconds({ 'retry-after': inTen })).toBeGreaterThanOrEqual(9);
  expect(retryAfterSeconds({ 'retry-after': new Date(0).toUTCString() })).toBe(0);
  expect(retryAfterSeconds({ 'ratelimit-reset': '12' })).toBe(12);
  expect(retryAfterSeconds({ 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 30) })).toBeGreaterThanOrEqual(29);
  expect(retryAfterSeconds({ 'retry-after': 'soon' })).toBeUndefined();
  expect(retryAfterSeconds({})).toBeUndefined();
});
