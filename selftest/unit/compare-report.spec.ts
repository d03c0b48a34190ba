/**
 * Compare mode's reading of two runs, from hand-made matrices and observations (no suite run): the
 * ranking of differences, the first difference of a clause in a few words, the three groups and the
 * family counts, failures as the matrix records them, and the order of the two reports.
 */
import { expect, test } from '@playwright/test';
import { diffRequests } from '../../reporters/compare/diff';
import { compare } from '../../reporters/compare/model';
import { compareReports, LIMITS } from '../../reporters/compare/report';
import type { Side } from '../../reporters/compare/model';
import type { ClauseRow, Matrix } from '../../reporters/clause-matrix';
import { requestOf, type Failure } from '../../support/checks/failure';
import { shapeOf, type Observation } from '../../support/http/observation';

type Status = ClauseRow['status'];
type TestStatus = 'passed' | 'waived' | 'failed' | 'skipped';

interface RowSpec {
  status: Status;
  tests?: Array<[string, TestStatus]>;
  failures?: Failure[];
  reasons?: string[];
}

/** A matrix with the given rows; every other clause listed is verified by a test of its own. */
function matrix(rows: Record<string, RowSpec>, ids = Object.keys(rows)): Matrix {
  const clauses = ids.map((id) => {
    const r = rows[id] ?? { status: 'verified', tests: [[`t ${id}`, 'passed']] };
    return {
      id,
      summary: `rule ${id}`,
      status: r.status,
      tests: (r.tests ?? []).map(([title, status]) => ({ title, file: 'tests/x.spec.ts', status })),
      reasons: r.reasons ?? [],
      failures: r.failures ?? [],
    };
  });
  return {
    generatedAt: '2026-01-01T00:00:00Z',
    runStatus: 'failed',
    summary: { verified: 0, failed: 0, skipped: 0, notCovered: 0 },
    clauses,
    drift: [],
    requests: { total: 0 },
  } as unknown as Matrix;
}

const obs = (
  request: string,
  status: number,
  body?: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
  route = request,
): Observation => ({
  request,
  route,
  status,
  headers,
  body: body === undefined ? {} : typeof body === 'string' ? { $: `text(${body.length})` } : shapeOf(body),
});

const side = (label: string, m: Matrix, observations: Record<string, Observation[]> = {}): Side => ({ label, matrix: m, observations, exitCode: 1 });

const RUNTIME = { name: '2024.09', multiStepSupport: true, nodeJsVersion: 'v20.17.0', dependencies: { axios: '1.7.0', chai: '4.3.0', lodash: '4.17.21' } };
const NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'Runtime not found' };

test.describe('ranking of differences', () => {
  test('a body is not diffed field by field when the statuses differ: one status line, not forty fields', () => {
    const { requests } = diffRequests([obs('GET /v1/runtimes/1999.01', 404, NOT_FOUND)], [obs('GET /v1/runtimes/1999.01', 200, RUNTIME)]);
    expect(requests).toHaveLength(1);
    expect(requests[0].differences.map((d) => d.what)).toEqual(['status']);
    expect(requests[0].differences[0]).toMatchObject({ a: '404 "Not Found"', b: '200', phrase: 'status 404 vs 200' });
  });

  test('status, then content type (JSON or not), then error-body fields, then body fields, then headers', () => {
    const a = [
      obs('GET /v1/runtimes/x', 404, NOT_FOUND, { 'content-type': 'application/json', 'x-ratelimit-limit': '600' }),
      obs('GET /v1/runtimes/2024.09', 200, RUNTIME),
      obs('GET /v1/runtimes/2023.09', 200, RUNTIME),
      obs('GET /v1/runtimes/y', 404, NOT_FOUND),
    ];
    const b = [
      obs('GET /v1/runtimes/x', 404, { ...NOT_FOUND, error: 'Not found' }, { 'content-type': 'application/json' }),
      obs('GET /v1/runtimes/2024.09', 200, { ...RUNTIME, nodeJsVersion: '20.17.0' }),
      obs('GET /v1/runtimes/2023.09', 200, 'name=2023.09', { 'content-type': 'text/plain' }),
      obs('GET /v1/runtimes/y', 500, { statusCode: 500 }),
    ];
    const { requests, alike } = diffRequests(a, b);
    expect(alike).toBe(0);
    expect(requests.map((r) => r.request)).toEqual(['GET /v1/runtimes/y', 'GET /v1/runtimes/2023.09', 'GET /v1/runtimes/x', 'GET /v1/runtimes/2024.09']);
    expect(requests[1].differences[0].phrase).toBe('content-type application/json vs text/plain');
    expect(requests[2].differences.map((d) => d.phrase)).toEqual(['error body: error "Not Found" vs "Not found"', 'x-ratelimit-limit only on A']);
    expect(requests[3].differences.map((d) => d.phrase)).toEqual(['body: nodeJsVersion "v20.17.0" vs "20.17.0"']);
  });

  test('two JSON content types are a detail; keys of one object present on one side are one difference', () => {
    const { requests } = diffRequests(
      [obs('GET /v1/runtimes/2024.09', 200, RUNTIME)],
      [
        obs(
          'GET /v1/runtimes/2024.09',
          200,
          { ...RUNTIME, dependencies: { property1: 'string', property2: 'string' } },
          { 'content-type': 'application/problem+json' },
        ),
      ],
    );
    expect(requests[0].differences.map((d) => d.phrase)).toEqual([
      'body: dependencies keys axios, chai, lodash only on A; property1, property2 only on B',
      'content-type application/json vs application/problem+json',
    ]);
  });

  test('requests are paired by their route (the ids differ between targets), so one request more on a side shifts nothing', () => {
    const [idA, idB] = ['0b8f5c2e-6d1a-4e3b-9f7c-2a4d6e8f0a1b', '1c9e6d3f-7e2b-4f4c-8a8d-3b5e7f9a1b2c'];
    const check = (method: string, id: string, status: number, body: unknown) =>
      obs(`${method} /v1/checks/${id}`, status, body, undefined, `${method} /v1/checks/{id}`);
    const a = [check('PUT', idA, 400, { statusCode: 400, error: 'Bad Request' }), check('GET', idA, 200, { id: 1 })];
    const b = [check('PUT', idB, 200, { id: 1 }), check('GET', idB, 200, { id: 1 }), check('GET', idB, 200, { id: 1 })];
    const { requests, alike } = diffRequests(a, b);
    expect(alike).toBe(1);
    expect(requests.map((r) => [r.request, r.requestB, r.differences[0].phrase])).toEqual([
      [`PUT /v1/checks/${idA}`, `PUT /v1/checks/${idB}`, 'status 400 vs 200'],
      [`GET /v1/checks/${idB}`, undefined, `only B sent GET /v1/checks/${idB}`],
    ]);
  });
});

test.describe('clauses, groups and first differences', () => {
  const ids = ['SPEC-1', 'AUTH-3', 'RT-3', 'RT-9', 'ERR-1', 'ERR-3', 'RL-2', 'CU-1', 'CU-2', 'AG-1'];
  const runtime = 'runtime.spec.ts › get one runtime › runtime 2024.09';
  const unknown = 'runtime.spec.ts › get one runtime › unknown id: a version that never existed';
  const key = 'credentials.spec.ts › authentication › rejects: unknown bearer key';
  const burst = 'rate-limit-burst.spec.ts › burst › the limit holds';
  const spec = 'spec.spec.ts › spec › openapi.json is served';
  const A = side(
    'A',
    matrix(
      {
        'SPEC-1': { status: 'verified', tests: [[spec, 'passed']] },
        'AUTH-3': { status: 'verified', tests: [[key, 'passed']] },
        'RT-3': { status: 'verified', tests: [[runtime, 'passed']] },
        'RT-9': { status: 'verified', tests: [[unknown, 'passed']] },
        'ERR-1': {
          status: 'failed',
          tests: [[unknown, 'failed']],
          failures: [
            {
              clause: 'ERR-1',
              field: 'error',
              title: 'does not match the documented 404 body: Invalid literal value, expected "Not Found"',
              received: '"Not found"',
              allowed: '"Not Found"',
              test: unknown,
              exchange: { method: 'GET', url: 'http://127.0.0.1:4000/v1/runtimes/1999.01', status: 404, contentType: 'application/json' },
            },
          ],
        },
        'RL-2': { status: 'verified', tests: [[burst, 'passed']] },
        'CU-1': { status: 'verified', tests: [['cu › a valid update', 'passed']] },
        'AG-1': {
          status: 'skipped',
          tests: [['agent › readiness', 'skipped']],
          reasons: ['AGENT_URL is not set: the agent is started through AGENT_COMMAND instead'],
        },
      },
      ids,
    ),
    {
      [spec]: [obs('GET /openapi.json', 200, { openapi: '3.0.3' })],
      [key]: [obs('GET /v1/runtimes/2025.04', 401, { statusCode: 401, error: 'Unauthorized' })],
      [runtime]: [obs('GET /v1/runtimes/2024.09', 200, RUNTIME)],
      [unknown]: [obs('GET /v1/runtimes/1999.01', 404, { ...NOT_FOUND, error: 'Not found' })],
    },
  );
  const B = side(
    'B',
    matrix(
      {
        'SPEC-1': {
          status: 'failed',
          tests: [[spec, 'failed']],
          failures: [
            {
              clause: 'SPEC-1',
              title: 'GET /openapi.json did not answer 200',
              received: '404',
              allowed: '200 with the OpenAPI document',
              expectedStatus: 200,
              test: spec,
              exchange: { method: 'GET', url: 'http://127.0.0.1:4010/openapi.json', status: 404, contentType: 'application/problem+json' },
            },
          ],
        },
        'AUTH-3': {
          status: 'failed',
          tests: [[key, 'failed']],
          failures: [
            {
              clause: 'AUTH-3',
              title: 'an invalid request was not rejected',
              received: '200',
              allowed: 'a 4xx status',
              expectedStatus: '4xx',
              test: key,
              exchange: { method: 'GET', url: 'http://127.0.0.1:4010/v1/runtimes/2025.04', status: 200, contentType: 'application/json' },
            },
          ],
        },
        'RT-3': {
          status: 'failed',
          tests: [[runtime, 'failed']],
          failures: [
            {
              clause: 'RT-3',
              title: 'runtime 2024.09: nodeJsVersion is not v<major>.<minor>.<patch>',
              received: '"20.17.0"',
              allowed: 'v<major>.<minor>.<patch>',
              test: runtime,
              place: 'runtime',
              valueClass: 'no-v',
            },
          ],
        },
        'RT-9': {
          status: 'failed',
          tests: [[unknown, 'failed']],
          failures: [
            {
              clause: 'RT-9',
              title: 'unknown runtime id did not answer 404',
              received: '200',
              allowed: '404 with the ERR-1 body',
              expectedStatus: 404,
              test: unknown,
              exchange: { method: 'GET', url: 'http://127.0.0.1:4010/v1/runtimes/1999.01?full=1', status: 200, contentType: 'application/json' },
            },
          ],
        },
        'ERR-1': { status: 'verified', tests: [[unknown, 'passed']] },
        'RL-2': {
          status: 'failed',
          tests: [[burst, 'failed']],
          failures: [
            {
              clause: 'RL-2',
              title: '1242 requests in 2.8 s, none refused',
              received: '"1242 served, no 429"',
              allowed: '600 served per 60 s, then 429',
              served: 1242,
              test: burst,
            },
          ],
        },
        'CU-1': {
          status: 'skipped',
          tests: [['cu › a valid update', 'skipped']],
          reasons: ['CHECK_ID is not set: against a remote target the update tests change only an API check named by CHECK_ID (and restore it)'],
        },
        'AG-1': { status: 'verified', tests: [['agent › readiness', 'passed']] },
      },
      ids,
    ),
    {
      [spec]: [
        obs(
          'GET /openapi.json',
          404,
          { type: 'https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR', status: 404 },
          { 'content-type': 'application/problem+json' },
        ),
      ],
      [key]: [obs('GET /v1/runtimes/2025.04', 200, RUNTIME)],
      [runtime]: [obs('GET /v1/runtimes/2024.09', 200, { ...RUNTIME, nodeJsVersion: '20.17.0' })],
      [unknown]: [obs('GET /v1/runtimes/1999.01', 200, RUNTIME)],
    },
  );
  const c = compare(A, B);
  const byId = (id: string) => c.clauses.find((x) => x.id === id)!;

  test('the verdict counts differing clauses and families; the family matrix counts each direction', () => {
    expect(c.verdict).toBe('B differs from A on 8 clauses in 7 families.');
    const row = (f: string) => c.families.find((x) => x.family === f);
    expect(row('RT')).toEqual({ family: 'RT', clauses: 2, same: 0, aOnly: 2, bOnly: 0, oneSkipped: 0 });
    expect(row('ERR')).toEqual({ family: 'ERR', clauses: 2, same: 1, aOnly: 0, bOnly: 1, oneSkipped: 0 });
    expect(row('CU')).toEqual({ family: 'CU', clauses: 2, same: 1, aOnly: 0, bOnly: 0, oneSkipped: 1 });
    expect(c.families.map((f) => f.family)).toEqual(['SPEC', 'AUTH', 'RT', 'ERR', 'RL', 'CU', 'AG']);
    expect(compare(A, side('A again', A.matrix!, A.observations)).verdict).toBe('A and B agree on every clause (10).');
  });

  test('three groups: what A verified and B failed, what B verified and A failed, what one side skipped', () => {
    expect(c.groups.map((g) => [g.title, g.clauses.map((x) => x.id)])).toEqual([
      ['A verified, B failed', ['SPEC-1', 'AUTH-3', 'RT-3', 'RT-9', 'RL-2']],
      ['B verified, A failed', ['ERR-1']],
      ['Skipped on one side', ['CU-1', 'AG-1']],
    ]);
  });

  test('the first difference in a few words', () => {
    expect(byId('SPEC-1').first).toBe('status 200 vs 404');
    expect(byId('AUTH-3').first).toBe('status 401 vs 200');
    expect(byId('RT-3').first).toBe('body: nodeJsVersion "v20.17.0" vs "20.17.0"');
    expect(byId('RT-9').first).toBe('status 404 vs 200');
    expect(byId('RL-2').first).toBe('B: no 429 after 1242 requests');
    expect(byId('CU-1').first).toBe('B skipped: CHECK_ID is not set');
    expect(byId('AG-1').first).toBe('A skipped: AGENT_URL is not set');
    expect(byId('ERR-3').first).toBe('');
  });

  test('failures: records are used as they are, one type from the check to compare (the request a field); the url is shown as a path', () => {
    expect(byId('RT-3').tests[0].failures).toEqual([
      {
        side: 'B',
        clause: 'RT-3',
        title: 'runtime 2024.09: nodeJsVersion is not v<major>.<minor>.<patch>',
        received: '"20.17.0"',
        allowed: 'v<major>.<minor>.<patch>',
        test: runtime,
        place: 'runtime',
        valueClass: 'no-v',
      },
    ]);
    expect(byId('RT-9').tests[0].failures).toEqual([
      {
        side: 'B',
        clause: 'RT-9',
        title: 'unknown runtime id did not answer 404',
        received: '200',
        allowed: '404 with the ERR-1 body',
        expectedStatus: 404,
        test: unknown,
        exchange: { method: 'GET', url: 'http://127.0.0.1:4010/v1/runtimes/1999.01?full=1', status: 200, contentType: 'application/json' },
      },
    ]);
    expect(requestOf(byId('RT-9').tests[0].failures[0])).toBe('GET /v1/runtimes/1999.01?full=1 → 200');
  });

  test('without recorded responses the first difference comes from the record: the status it allowed, the request by its path', () => {
    const failure: Failure = {
      clause: 'RT-9',
      title: 'unknown runtime id did not answer 404',
      received: '200',
      allowed: '404 with the ERR-1 body',
      expectedStatus: 404,
      test: unknown,
      exchange: { method: 'GET', url: 'http://127.0.0.1:4010/v1/runtimes/x', status: 200, contentType: 'application/json' },
    };
    const bare = compare(
      side('A', matrix({ 'RT-9': { status: 'verified', tests: [[unknown, 'passed']] } })),
      side('B', matrix({ 'RT-9': { status: 'failed', tests: [[unknown, 'failed']], failures: [failure] } })),
    );
    expect(bare.clauses[0].first).toBe('status 404 vs 200 on GET /v1/runtimes/x');
    expect(requestOf(bare.clauses[0].tests[0].failures[0])).toBe('GET /v1/runtimes/x → 200');
  });

  test("each test's responses are shown once: a later clause of the same test points to the first", () => {
    const sections = compareReports(A, B).markdown.split('\n### ');
    const section = (id: string) => sections.find((s) => s.startsWith(`${id}:`))!;
    expect(section('RT-9')).not.toContain('responses: as under');
    expect(byId('ERR-1').tests[0]).toMatchObject({ title: unknown, a: 'failed', b: 'passed' });
    expect(section('ERR-1')).toContain('responses: as under RT-9');
  });

  test('the markdown and the page say the same things in the same order, details collapsed', () => {
    const { markdown: md, html } = compareReports(A, B);
    const order = [
      'B differs from A on 8 clauses',
      '| family |',
      '## A verified, B failed (5)',
      '| RT-9 | verified | failed | status 404 vs 200 |',
      '## B verified, A failed (1)',
      '## Skipped on one side (2)',
      '- B skipped CU-1: CHECK_ID is not set',
      '## Details',
      '### RT-9',
      '## All clauses',
    ];
    const at = order.map((s) => md.indexOf(s));
    expect(
      at.every((i) => i >= 0),
      JSON.stringify(order.filter((_, i) => at[i] < 0)),
    ).toBe(true);
    expect(at).toEqual([...at].sort((x, y) => x - y));
    const pageOrder = [
      'class="verdict',
      'class="families"',
      'A verified, B failed',
      'B verified, A failed',
      'Skipped on one side',
      '<h2>Details',
      'id="d-RT-9"',
      '<h2>All clauses',
    ];
    const pageAt = pageOrder.map((s) => html.indexOf(s));
    expect(pageAt.every((i) => i >= 0)).toBe(true);
    expect(pageAt).toEqual([...pageAt].sort((x, y) => x - y));
    expect(html).not.toMatch(/<details[^>]* open/);
    // The test title is said once per clause, not once per row.
    expect(md.split('\n').filter((l) => l.includes('runtime 2024.09**')).length).toBe(1);
  });

  test('with many differences both reports show less of each, the same in both, to keep the page small', () => {
    const versions = ['2026.04', '2025.04', '2024.09', '2024.02'];
    const title = (v: string) => `runtime.spec.ts › get one runtime › runtime ${v}`;
    const run = (passed: boolean, nodeJs: (v: string) => string) =>
      side(
        passed ? 'A' : 'B',
        matrix({ 'RT-3': { status: passed ? 'verified' : 'failed', tests: versions.map((v) => [title(v), passed ? 'passed' : 'failed']) } }),
        Object.fromEntries(versions.map((v) => [title(v), [obs(`GET /v1/runtimes/${v}`, 200, { ...RUNTIME, name: v, nodeJsVersion: nodeJs(v) })]])),
      );
    const [a, b] = [run(true, () => 'v20.17.0'), run(false, () => '20.17.0')];
    const roomy = compareReports(a, b, 1_000_000);
    expect(roomy.limits).toEqual(LIMITS[0]);
    expect(roomy.markdown).toContain('1 more test differs: runtime 2024.02');
    const tight = compareReports(a, b, 1);
    expect(tight.limits).toEqual(LIMITS.at(-1));
    expect(tight.markdown).toContain('3 more tests differ: runtime 2025.04 · runtime 2024.09 · runtime 2024.02');
    expect(tight.html).toContain('3 more tests differ');
    expect(Buffer.byteLength(tight.html)).toBeLessThan(Buffer.byteLength(roomy.html));
  });

  test('a side without results: no comparison, and the reason', () => {
    const none = compare(A, { label: 'B', observations: {}, exitCode: 4, problem: 'the target cannot be reached' });
    expect(none.verdict).toBe('No comparison: B (the target cannot be reached) produced no clause results.');
    expect(none.groups.every((g) => g.clauses.length === 0)).toBe(true);
  });
});

test('a waived clause counts as failed: against a verified one it differs (shown as waived), against a failed one it does not', () => {
  const a = matrix({ 'RT-2': { status: 'failed', tests: [['t RT-2', 'failed']] }, 'RT-3': { status: 'verified', tests: [['t RT-3', 'passed']] } });
  const b = matrix({ 'RT-2': { status: 'waived', tests: [['t RT-2', 'waived']] }, 'RT-3': { status: 'waived', tests: [['t RT-3', 'waived']] } });
  const c = compare(side('A', a), side('B', b));
  const clause = (id: string) => c.clauses.find((x) => x.id === id)!;
  expect(clause('RT-2')).toMatchObject({ differs: false, a: 'failed', b: 'waived' });
  expect(clause('RT-3')).toMatchObject({ differs: true, category: 'a-only', a: 'verified', b: 'waived' });
  expect(c.verdict).toBe('B differs from A on 1 clause in 1 family.');
});

test.describe('the headline is the cause', () => {
  const place = 'credentials.spec.ts › authentication › runtime: a valid bearer key with the account header is served, every other credential refused';
  const refused = { statusCode: 401, error: 'Unauthorized', message: 'refused' };
  // B takes an unknown key (AUTH-3 fails on that GET) and has no route for HEAD (405): the document lets a HEAD be refused either way.
  const failure: Failure = {
    clause: 'AUTH-3',
    title: 'an invalid request was not rejected',
    received: '200',
    allowed: 'a 4xx status',
    expectedStatus: '4xx',
    test: place,
    place: 'runtime',
    valueClass: 'unknown-key',
    exchange: { method: 'GET', url: 'http://127.0.0.1:4010/v1/runtimes/2025.04', status: 200, contentType: 'application/json' },
  };
  const row = (status: Status, failures: Failure[] = []): RowSpec => ({
    status,
    tests: [[place, status === 'verified' ? 'passed' : 'failed']],
    failures,
  });
  const a = side('A', matrix({ 'AUTH-3': row('verified') }), {
    [place]: [
      obs('GET /v1/runtimes/2025.04', 200, RUNTIME),
      obs('HEAD /v1/runtimes/2025.04', 401, undefined),
      obs('GET /v1/runtimes/2025.04', 401, refused),
      obs('GET /v1/runtimes/2025.04', 401, refused),
    ],
  });
  const b = side('B', matrix({ 'AUTH-3': row('failed', [failure]) }), {
    [place]: [
      obs('GET /v1/runtimes/2025.04', 200, RUNTIME),
      obs('HEAD /v1/runtimes/2025.04', 405, undefined, { 'content-type': 'application/problem+json' }),
      obs('GET /v1/runtimes/2025.04', 401, refused),
      obs('GET /v1/runtimes/2025.04', 200, RUNTIME),
    ],
  });

  test('a HEAD refused with 405 on one side and 401 on the other is no difference, let alone the headline', () => {
    const clause = compare(a, b).clauses[0];
    expect(clause.first).toBe('status 401 vs 200');
    expect(clause.tests[0].requests.map((r) => r.differences[0].phrase)).toEqual(['status 401 vs 200']);
    expect(clause.tests[0].alike).toBe(3);
  });

  test('the request a check failed on comes before a difference that failed nothing', () => {
    // B's HEAD answered 200 too, which no check of AUTH-3 failed on (a HEAD is AUTH-1's): ranked after the cause, though found first.
    const headServed = { ...b, observations: { [place]: b.observations[place].map((o) => (o.request.startsWith('HEAD') ? { ...o, status: 200 } : o)) } };
    const clause = compare(a, headServed).clauses[0];
    expect(clause.first).toBe('status 401 vs 200');
    expect(clause.tests[0].requests.map((r) => [r.request, r.cause ?? false])).toEqual([
      ['GET /v1/runtimes/2025.04', true],
      ['HEAD /v1/runtimes/2025.04', false],
    ]);
  });
});
