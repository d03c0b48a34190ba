/** Secrets never reach a report: keys, account ids and Authorization values are redacted. */
import { expect, test } from '@playwright/test';
import { containsSecret, redact, registerSecret, REDACTED } from '../../support/http/redact';
import { execFileSync } from 'node:child_process';
import { curlOf, CURL_BODY_CLIP, CURL_BODY_SHOWN, describeExchange } from '../../support/http/exchange';
import { ClauseFailure, makeFailure } from '../../support/checks/failure';

registerSecret('sk_live_abcdef123456');
registerSecret('6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c');

test('registered secrets are replaced wherever they appear', () => {
  expect(redact('key sk_live_abcdef123456 for 6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c')).toBe(`key ${REDACTED} for ${REDACTED}`);
});

test('any Authorization value is redacted, known or not', () => {
  expect(redact('authorization: Bearer someone-elses-key')).toBe(`authorization: Bearer ${REDACTED}`);
  expect(redact('{"Authorization":"Basic dXNlcjpwYXNz"}')).toBe(`{"Authorization":"Basic ${REDACTED}"}`);
  // An exchange in a report shows no Authorization value, whatever its shape, and every header redacted.
  const shown = describeExchange({
    method: 'GET',
    url: 'http://h/v1/runtimes/2026.04',
    requestHeaders: { Authorization: 'Token   odd\tvalue x', accept: 'application/json' },
    status: 401,
    headers: { 'x-echo': 'sk_live_abcdef123456' },
    text: '',
    json: undefined,
    contentType: '',
    ms: 1,
  }).split('\n');
  expect(shown).toContain(`Authorization: ${REDACTED}`);
  expect(shown).toContain('accept: application/json');
  expect(shown).toContain(`x-echo: ${REDACTED}`);
});

test('what a target may echo of a key is redacted too: base64, one character changed, split at a space', () => {
  const key = 'sk_live_abcdef123456';
  expect(redact(`Basic ${Buffer.from(`${key}:`).toString('base64')}`)).toBe(`Basic ${REDACTED}`);
  expect(redact('unknown key sk_live_abcdef123457')).toBe(`unknown key ${REDACTED}`);
  expect(redact('bad token "sk_live_ abcdef123456"')).not.toContain('abcdef123456');
  expect(redact('the id 6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4d is unknown')).toBe(`the id ${REDACTED} is unknown`);
});

test('containsSecret finds the key inside an echo', () => {
  expect(containsSecret('invalid key mon_live_abcdef123456xyz', 'live_abcdef123456xyz_extra')).toBe(true);
  expect(containsSecret('invalid key', 'live_abcdef123456xyz_extra')).toBe(false);
});

test('a failure quoting a response that echoes the key is redacted', () => {
  registerSecret('sk_live_abcdef123456');
  const f = new ClauseFailure([
    makeFailure({ clause: 'AUTH-7', title: 'error body echoes the key', received: { message: 'invalid key sk_live_abcdef123456' }, allowed: 'no key' }),
  ]);
  expect(f.message).not.toContain('sk_live_abcdef123456');
  expect(f.message.split('\n')[0]).toBe('AUTH-7: error body echoes the key');
});

// Issue 34: short secrets were never registered, and a query parameter's name went with the key.
const SHORT_KEY = 'k3y+9/Zq&';
const SHORT_ACCOUNT = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
registerSecret(SHORT_KEY);
registerSecret(SHORT_ACCOUNT);

test('a short key is redacted by its value, in any case and encoding, and what names it stays', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const forms = [
    SHORT_KEY,
    SHORT_KEY.toUpperCase(),
    SHORT_KEY.toLowerCase(),
    'K3Y+9/zQ&', // case swapped
    encodeURIComponent(SHORT_KEY),
    encodeURIComponent(SHORT_KEY).toLowerCase(),
    [...Buffer.from(SHORT_KEY)].map((b) => `%${b.toString(16).toUpperCase()}`).join(''),
    JSON.stringify(SHORT_KEY).slice(1, -1),
    'k3y+9/Zq&amp;',
  ];
  for (const form of forms) {
    expect(redact(`GET /v1/runtimes/2025.04?api_key=${form}&x=1`)).toBe(`GET /v1/runtimes/2025.04?api_key=${REDACTED}&x=1`);
    expect(redact(`cookie: api_key=${form}; token=${form}`)).toBe(`cookie: api_key=${REDACTED}; token=${REDACTED}`);
    expect(redact(`x-api-key: ${form}`)).toBe(`x-api-key: ${REDACTED}`);
  }
  // base64 of the key alone, of `key:` (a Basic header), of `user:key`, in base64url too.
  for (const encoded of [b64(SHORT_KEY), b64(`${SHORT_KEY}:`), b64(`me:${SHORT_KEY}`), b64(`ab:${SHORT_KEY}`), b64(`${SHORT_KEY.toUpperCase()}:`)])
    expect(redact(`x-auth: Basic ${encoded}`), encoded).toBe(`x-auth: Basic ${REDACTED}`);
  expect(redact(`t=${b64(`:${SHORT_KEY}`).replace(/\+/g, '-').replace(/\//g, '_')}`)).toBe(`t=${REDACTED}`);
});

test('an account id is redacted in upper case as in lower case, and its header name stays', () => {
  expect(redact(`-H 'X-Service-Account: ${SHORT_ACCOUNT.toUpperCase()}'`)).toBe(`-H 'X-Service-Account: ${REDACTED}'`);
  expect(redact(`{"account":"${SHORT_ACCOUNT}"}`)).toBe(`{"account":"${REDACTED}"}`);
});

/** The words a shell makes of a reproduce line, with the secrets exported: `curl` replaced by a printf of its arguments. */
function shellWords(curl: string, env: Record<string, string>): string[] {
  const out = execFileSync('sh', ['-c', curl.replace(/^curl /, `printf '%s\\0' `)], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

test('a reproduce line names each secret where it was sent, and the shell sends exactly what the probe sent', () => {
  const names = { API_KEY: SHORT_KEY, ACCOUNT_ID: SHORT_ACCOUNT, SECOND_API_KEY: 'second9x' };
  const url = `http://127.0.0.1:3000/v1/runtimes/2025.04?${new URLSearchParams({ api_key: 'second9x', a: `it's $HOME` })}`;
  const requestHeaders = {
    'X-Service-Account': SHORT_ACCOUNT.toUpperCase(),
    cookie: `api_key=${SHORT_KEY}; token=${SHORT_KEY}`,
    'x-api-key': SHORT_KEY,
    authentication: `Bearer ${SHORT_KEY}x`,
    'x-swapped': 'SECOND9X',
    'x-basic': `Basic ${Buffer.from(`${SHORT_KEY}:`).toString('base64')}`,
  };
  const curl = curlOf({ method: 'GET', url, requestHeaders }, names);
  for (const secret of [SHORT_KEY, SHORT_ACCOUNT, SHORT_ACCOUNT.toUpperCase(), 'second9x', 'SECOND9X']) expect(curl).not.toContain(secret);
  expect(curl).toContain('api_key=$SECOND_API_KEY');
  expect(curl).toContain(`"X-Service-Account: $(printf %s "$ACCOUNT_ID" | tr a-z A-Z)"`);
  expect(curl).toContain('"authentication: Bearer ${API_KEY}x"');
  expect(shellWords(curl, { ...names, HOME: '/nowhere' })).toEqual([
    '-sS',
    '-i',
    url,
    ...Object.entries(requestHeaders).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
  ]);
});

test('an Authorization value the suite cannot name is never shown, its scheme is', () => {
  const curl = curlOf(
    { method: 'GET', url: 'http://h/', requestHeaders: { authorization: 'Token made-up-key-123', Authorization: 'made-up' } },
    { API_KEY: 'key' },
  );
  expect(curl).toContain(`'authorization: Token ${REDACTED}'`);
  expect(curl).toContain(`'Authorization: ${REDACTED}'`);
});

test('a long body is clipped in the reproduce line, which says how much was cut and stays one command', () => {
  const long = curlOf({ method: 'PUT', url: 'http://h/v1/checks/1', requestHeaders: {}, requestBody: `{"name":"${'x'.repeat(1490)}"}` });
  expect(long).toMatch(new RegExp(`--data-raw '\\{"name":"x{${CURL_BODY_SHOWN - 9}}' # body clipped: ${1501 - CURL_BODY_SHOWN} more characters not shown$`));
  expect(shellWords(long, {}).at(-1)).toHaveLength(CURL_BODY_SHOWN);
  const short = curlOf({ method: 'PUT', url: 'http://h/v1/checks/1', requestHeaders: {}, requestBody: 'y'.repeat(CURL_BODY_CLIP - 1) });
  expect(short).toMatch(/--data-raw 'y{999}'$/);
  // The cut never halves a variable, nor a «redacted».
  const body = (key: string) => `${'z'.repeat(CURL_BODY_SHOWN - 4)} ${key} ${'z'.repeat(600)}`;
  expect(curlOf({ method: 'PUT', url: 'http://h/', requestHeaders: {}, requestBody: body(SHORT_KEY) }, { API_KEY: SHORT_KEY })).toMatch(
    /z ' # body clipped: 609 more characters not shown$/,
  );
  expect(curlOf({ method: 'PUT', url: 'http://h/', requestHeaders: {}, requestBody: body(SHORT_KEY) })).toMatch(
    /z ' # body clipped: 611 more characters not shown$/,
  );
});
