// A client that keeps cookies: what a target set comes back with the probes it must refuse, an
// Expires date's comma read as part of its cookie, the last value of a name kept.
import { expect, test } from '@playwright/test';
import { keepCookies, keptCookieNames, withKeptCookies } from '../../support/auth/cookie-jar';

test('the cookies a target set go back to it, after a probe cookie of its own; another origin gets none', () => {
  const url = 'http://127.0.0.1:4999/v1/runtimes/2025.04';
  expect(withKeptCookies(url)).toBeUndefined();
  keepCookies(url, { 'Set-Cookie': 'session=abc; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT, svc_account=6f1d; HttpOnly' });
  keepCookies(url, { 'set-cookie': 'session=def; Path=/' });
  expect(keptCookieNames(url)).toEqual(['session', 'svc_account']);
  expect(withKeptCookies(url)).toBe('session=def; svc_account=6f1d');
  expect(withKeptCookies(url, 'api_key=x')).toBe('api_key=x; session=def; svc_account=6f1d');
  expect(withKeptCookies('http://127.0.0.1:5000/v1/runtimes')).toBeUndefined();
});
