// Custom per-route limits read from operation prose: the real wording, variants, and the published spec.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { customLimitsOf, describeRouteLimit, formatLimit, parseCustomLimit } from '../../support/rate-limit/custom-limits';
import { buildSpec } from '../../support/spec/spec';
import { parseSpecText } from '../../support/spec/spec-source';
import { publishedSpec } from './published-spec';

test("the real service's sentences", () => {
  const cases: Array<[string, number, number]> = [
    ['**Rate-limiting is applied to this endpoint, you can send 5 requests / 10 seconds at most.**', 5, 10],
    ['you can send 30 requests / 60 seconds at most', 30, 60],
    ['you can send 20 requests / 20 seconds at most.', 20, 20],
    ['**Rate-limiting is applied to this endpoint, you can send 300 requests per day at most.**', 300, 86_400],
  ];
  for (const [text, max, windowSeconds] of cases) expect(parseCustomLimit(text), text).toMatchObject({ max, windowSeconds });
});

test('other ways of writing a limit', () => {
  const cases: Array<[string, number, number]> = [
    ['Limited to 100 requests per minute.', 100, 60],
    ['at most 1,000 requests per hour', 1000, 3600],
    ['10 requests/s', 10, 1],
    ['60 requests per 1 minute', 60, 60],
    ['5 requests every 2 minutes', 5, 120],
    ['2 API calls per second', 2, 1],
    ['one burst of 50 requests in 30 seconds', 50, 30],
  ];
  for (const [text, max, windowSeconds] of cases) expect(parseCustomLimit(text), text).toMatchObject({ max, windowSeconds });
});

test('prose without a limit is not read as one', () => {
  for (const text of [
    undefined,
    '',
    'Lists all supported runtimes.',
    'Returns up to 100 results per page.',
    'We keep raw results for 30 days.',
    'Retries 3 requests per check run.',
    'Use the `to` and `from` parameters (UNIX timestamp in seconds).',
  ]) {
    expect(parseCustomLimit(text), String(text)).toBeUndefined();
  }
});

test('formatting for the report', () => {
  expect(formatLimit({ max: 20, windowSeconds: 10, text: '' })).toBe('20 requests / 10 seconds');
  expect(formatLimit({ max: 300, windowSeconds: 86_400, text: '' })).toBe('300 requests / 1 day');
  expect(formatLimit({ max: 5, windowSeconds: 7200, text: '' })).toBe('5 requests / 2 hours');
});

test('the published spec: every custom limit it states, and nothing else', async () => {
  const spec = await publishedSpec();
  const found = customLimitsOf(spec).map(describeRouteLimit).sort();
  const analytics = [
    'api-checks',
    'browser-checks',
    'dns',
    'heartbeat-checks',
    'icmp',
    'multistep-checks',
    'playwright-checks',
    'ssl',
    'tcp-checks',
    'url-monitors',
  ];
  expect(found).toEqual(
    [
      'GET /v1/alert-notifications: 5 requests / 10 seconds',
      ...analytics.map((a) => `GET /v1/analytics/${a}/{id}: 30 requests / 60 seconds`),
      'POST /v1/analytics/checks: 30 requests / 60 seconds',
      'GET /v1/check-results/{checkId}: 60 requests / 60 seconds',
      'GET /v1/dashboards/{dashboardId}: 20 requests / 20 seconds',
      'GET /v1/private-locations/{id}/metrics: 300 requests / 1 day',
      'GET /v2/check-results/{checkId}: 60 requests / 60 seconds',
    ].sort(),
  );
  // The other ~125 operations state none: a sentence-level parser must not invent one.
  expect(spec.operations.length).toBeGreaterThan(100);
});

test('the reference service states its custom route in the real wording', async () => {
  const file = join(__dirname, '../../specs/openapi.json');
  const spec = await buildSpec(parseSpecText(readFileSync(file, 'utf8'), file), file);
  expect(customLimitsOf(spec).map(describeRouteLimit)).toEqual(['GET /v1/runtimes: 20 requests / 10 seconds']);
});
