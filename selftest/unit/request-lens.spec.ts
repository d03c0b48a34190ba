// The request lens's pure parts: the pairwise choice covers every pair and replays by seed; the catalogue's
// operators make the requests they say; the cases of a run stay within their share of the rate limit.
import { expect, test } from '@playwright/test';
import { pairwise } from '../../support/request-lens/pairwise';
import { PATH_OPERATORS, BODY_OPERATORS, HEADER_OPERATORS, METHOD_OPERATORS } from '../../support/request-lens/operators';
import { headerCases, pathCases, type LensPlace } from '../../support/request-lens/cases';
import type { SpecOperation } from '../../support/spec/spec';

test('pairwise rows hold every pair of values of any two dimensions, fewer than the product, the same for the same seed', () => {
  const sizes = [8, 5, 6, 3];
  const rows = pairwise(sizes, 7);
  for (let a = 0; a < sizes.length; a++)
    for (let b = a + 1; b < sizes.length; b++)
      for (let x = 0; x < sizes[a]; x++)
        for (let y = 0; y < sizes[b]; y++)
          expect(
            rows.some((r) => r[a] === x && r[b] === y),
            `${a}:${x} ${b}:${y}`,
          ).toBe(true);
  expect(rows.length).toBeLessThan(sizes.reduce((p, n) => p * n, 1) / 4);
  expect(pairwise(sizes, 7)).toEqual(rows);
  expect(pairwise(sizes, 8)).not.toEqual(rows);
});

test('operator names are unique within each dimension', () => {
  for (const names of [
    METHOD_OPERATORS.map((o) => o.method),
    PATH_OPERATORS.map((o) => o.name),
    HEADER_OPERATORS.map((o) => `${o.header}:${o.name}`),
    BODY_OPERATORS.map((o) => o.name),
  ])
    expect(new Set(names).size).toBe(names.length);
});

const op = {} as SpecOperation;
const runtime: LensPlace = {
  place: 'runtime',
  op,
  collection: '/v1/runtimes',
  id: '2025.04',
  clause: 'RT-9',
  identity: { property: 'name', value: '2025.04' },
};
const check: LensPlace = { place: 'check-read', op, collection: '/v1/checks', id: 'c0ffee00-0000-4000-8000-000000000001', clause: 'SPEC-9' };
const collection: LensPlace = { place: 'GET /v1/runtimes', op, collection: '/v1/runtimes', clause: 'SPEC-9' };

test('path operators: other spellings of the same path, and paths no route handles', () => {
  const paths = Object.fromEntries(pathCases([runtime], 1).map((c) => [c.valueClass, c.path]));
  expect(paths).toMatchObject({
    'request:path:trailing-slash': '/v1/runtimes/2025.04/',
    'request:path:double-slash': '/v1//runtimes/2025.04',
    'request:path:dot-segment': '/v1/runtimes/./2025.04',
    'request:path:percent-encoded-id': '/v1/runtimes/%32%30%32%35%2E%30%34',
    'request:path:encoded-slash': '/v1/runtimes%2F2025.04',
    'request:path:version-upper-case': '/V1/runtimes/2025.04',
    'request:path:no-version': '/runtimes/2025.04',
    'request:path:segment-added': '/v1/runtimes/2025.04/contract-suite-no-such-route',
  });
  // Every operator at the runtime, and each at one more place.
  const all = pathCases([runtime, check, collection], 1);
  expect(all.filter((c) => c.at === runtime)).toHaveLength(PATH_OPERATORS.length);
  expect(all.length).toBeLessThanOrEqual(2 * PATH_OPERATORS.length);
  expect(all.filter((c) => c.expect === 'no-route').every((c) => c.clause === 'ERR-3')).toBe(true);
});

test('header cases: every operator a target may take is paired with every other header and place; the refused ones go alone', () => {
  const creds = { apiKey: 'mon_key', accountId: 'c0ffee00-0000-4000-8000-000000000002', accountHeader: 'X-Service-Account' };
  const cases = headerCases([runtime, check, collection], creds, 3);
  expect(headerCases([runtime, check, collection], creds, 3).map((c) => c.valueClass)).toEqual(cases.map((c) => c.valueClass));
  const refused = cases.filter((c) => c.expect === 'refused');
  expect(refused.map((c) => c.valueClass).sort()).toEqual([
    'request:header:account:long',
    'request:header:account:over-usual-limits',
    'request:header:authorization:long-unknown-key',
  ]);
  // Over the usual size limits a server may close the connection instead of answering (RFC 6585 section 5).
  expect(cases.filter((c) => c.mayDrop).map((c) => c.valueClass)).toEqual(['request:header:account:over-usual-limits']);
  const repeated = cases.find((c) => c.valueClass.includes('authorization:repeated+') || c.valueClass.endsWith('authorization:repeated'))!;
  expect(repeated.options.repeated?.authorization).toEqual(['Bearer mon_key', 'Bearer mon_key']);
  expect(repeated.options.headers?.authorization).toBeNull();
  // Within a share of the rate limit: well under a tenth of a window.
  expect(cases.length).toBeLessThan(60);
});
