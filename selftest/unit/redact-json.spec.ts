/** Reports are JSON text redacted as a whole: redaction must leave them JSON (a curl line holds escaped quotes). */
import { expect, test } from '@playwright/test';
import { redact } from '../../support/http/redact';

test('a curl line with the Authorization header stays valid JSON once redacted', () => {
  const curl = `curl -sS -i 'http://x/v1/checks/1' -H "authorization: Bearer someone-elses-key" -H 'accept: application/json'`;
  const text = redact(JSON.stringify({ curl }, null, 2));
  expect(() => JSON.parse(text)).not.toThrow();
  expect(JSON.parse(text).curl).toContain('authorization: Bearer «redacted»');
});

test('a shell variable in the Authorization header is no credential: the reproduce line keeps it', () => {
  const curl = `curl -sS -i 'http://x/v1/checks/1' -H "authorization: Bearer $API_KEY" -H "authorization: Basic $(printf %s "$API_KEY:" | base64)"`;
  expect(JSON.parse(redact(JSON.stringify({ curl }))).curl).toBe(curl);
});
