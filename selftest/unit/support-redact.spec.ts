/** Secrets never reach a report: keys, account ids and Authorization values are redacted. */
import { expect, test } from '@playwright/test';
import { containsSecret, redact, registerSecret, REDACTED } from '../../support/http/redact';
import { describeExchange } from '../../support/http/exchange';
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
