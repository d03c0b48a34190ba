/** Configuration: defaults for the embedded service, one clear line for each bad value. */
import { expect, test } from '@playwright/test';
import { EMBEDDED, readConfig } from '../../support/run/config';
import { SuiteError } from '../../support/run/suite-error';

const embedded = { CONTRACT_EMBEDDED_PORT: '4321' };
const remote = { BASE_URL: 'https://staging.example.com/', API_KEY: 'k_123456789', ACCOUNT_ID: '11111111-2222-4333-8444-555555555555' };

test('with nothing set, the embedded service and its demo credentials are the target', () => {
  const c = readConfig(embedded);
  expect(c).toMatchObject({
    embedded: true,
    baseUrl: 'http://127.0.0.1:4321',
    apiKey: EMBEDDED.apiKey,
    checkId: EMBEDDED.checkId,
    rateLimit: { max: 600, windowSeconds: 60 },
    burst: true,
    strictSpec: false,
  });
  expect(c.specUrl).toBe('http://127.0.0.1:4321/openapi.json');
  expect(c.agentCommand).toContain('reference/agent/main.ts');
});

test("a remote target gets no embedded ids: the update tests must skip, not touch someone else's check", () => {
  const c = readConfig(remote);
  expect(c).toMatchObject({ embedded: false, baseUrl: 'https://staging.example.com', checkId: undefined, browserCheckId: undefined, second: undefined });
  expect(c.agentCommand).toBe(EMBEDDED.agentCommand); // INTERFACE.md: the embedded agent when AGENT_URL is unset
});

const bad: Array<[Record<string, string>, RegExp]> = [
  [{ ...remote, BASE_URL: 'staging.example.com' }, /^BASE_URL must be an http\(s\) URL/],
  [{ ...remote, ACCOUNT_ID: 'acme' }, /^ACCOUNT_ID must be a GUID/],
  [{ ...remote, API_KEY: '' }, /^API_KEY is required when BASE_URL is set$/],
  [{ ...embedded, RATE_LIMIT_MAX: 'lots' }, /^RATE_LIMIT_MAX must be a whole number \(got "lots"\)$/],
  [{ ...embedded, RATE_LIMIT_WINDOW_S: '-5' }, /^RATE_LIMIT_WINDOW_S must be positive/],
  [{ ...embedded, BURST: 'yes' }, /^BURST must be "on" or "off"/],
  [{ ...embedded, ACCOUNT_HEADER: 'X Account' }, /^ACCOUNT_HEADER must be an HTTP header name/],
  [{ ...embedded, SECOND_API_KEY: 'k2_12345678' }, /^SECOND_API_KEY and SECOND_ACCOUNT_ID must be set together$/],
];

for (const [env, message] of bad) {
  test(`one line for: ${message.source.replace(/\\/g, '')}`, () => {
    let error: unknown;
    try {
      readConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SuiteError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });
}

test('a malformed secret is named but never shown', () => {
  expect(() => readConfig({ ...remote, ACCOUNT_ID: 'secret-ish-value' })).toThrow(/^ACCOUNT_ID must be a GUID[^"]*$/);
});
