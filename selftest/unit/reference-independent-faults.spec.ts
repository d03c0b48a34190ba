// The independent faults (reference/independent-faults.ts): for each, one probe and what it observes
// on a clean service and with the fault injected, so the bug is shown to be there and the clean
// behaviour to be the documented one. Agent faults run the agent as a child process.
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import type { FaultName } from '../../reference/faults';
import { afterSigterm, expectMeasured, expectUsableWith, testCase, UNKNOWN_CHECK, type Case } from './reference-fault-harness';

/** One endpoint probed at each moment (ms after SIGTERM). */
const at = (path: string, moments: number[]): Array<[number, string]> => moments.map((m) => [m, path]);
import { INDEPENDENT_FAULTS } from '../../reference/independent-faults';
import { INDEPENDENT_FAULTS as MEASURED } from '../faults/independent';
import { AUTH, call, DEMO_KEY, getCheck, put, SECOND_ACCOUNT_ID, SEEDED_API_CHECK_ID, SEEDED_BROWSER_CHECK_ID, type FakeClock } from '../../reference/testing';

const spec = async (app: FastifyInstance) => (await call(app, { url: '/openapi.json', headers: {} })).body;
const rt = (app: FastifyInstance, id: string) => call(app, { url: `/v1/runtimes/${id}` });
const status = async (app: FastifyInstance, url: string, headers: Record<string, string>) => (await call(app, { url, headers })).status;
const putStatus = async (app: FastifyInstance, body: unknown, id?: string) => (await put(app, body, id)).status;
/** Sends up to n requests, the clock moving `tickMs` before each; returns the answers' statuses. */
async function burst(app: FastifyInstance, clock: FakeClock, n: number, url: string, tickMs = 0) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    clock.tick(tickMs);
    out.push((await app.inject({ url, headers: { ...AUTH } })).statusCode);
  }
  return out;
}
const served = (statuses: number[]) => statuses.filter((s) => s === 200).length;

const CASES: Partial<Record<FaultName, Case>> = {
  // SPEC
  'ind-spec-update-basic-auth': {
    probe: async (a) => {
      const doc = await spec(a);
      return [Object.keys(doc.components.securitySchemes), doc.paths['/v1/checks/{id}'].put.security ?? 'inherits', doc.security];
    },
    clean: [['Bearer'], 'inherits', [{ Bearer: [] }]],
    broken: [['Bearer', 'Basic'], [{ Basic: [] }], [{ Bearer: [] }]],
  },
  'ind-spec-query-string': {
    probe: async (a) => (await spec(a)).paths['/v1/checks/{id}'].put.parameters.find((p: { in: string }) => p.in === 'query').schema.type,
    clean: 'boolean',
    broken: 'string',
  },
  // AUTH
  'ind-auth-bare-key': {
    probe: async (a) => [
      await status(a, '/v1/runtimes/2025.04', { ...AUTH, authorization: DEMO_KEY }),
      await status(a, '/v1/runtimes/2025.04', { ...AUTH, authorization: `Basic ${DEMO_KEY}` }),
      await status(a, '/v1/runtimes/2025.04', { ...AUTH, authorization: 'mon_nobody' }),
    ],
    clean: [401, 401, 401],
    broken: [200, 401, 401],
  },
  'ind-auth-key-suffix': {
    probe: async (a) => [
      await status(a, '/v1/runtimes/2025.04', { ...AUTH, authorization: `Bearer ${DEMO_KEY}x` }),
      await status(a, '/v1/runtimes/2025.04', { ...AUTH, authorization: `Bearer ${DEMO_KEY.slice(0, -1)}` }),
    ],
    clean: [401, 401],
    broken: [200, 401],
  },
  'ind-auth-checks-account-optional': {
    probe: async (a) => {
      const headers = { authorization: AUTH.authorization };
      return [
        await status(a, `/v1/checks/${SEEDED_API_CHECK_ID}`, headers),
        (await call(a, { method: 'PUT', url: `/v1/checks/${SEEDED_API_CHECK_ID}`, headers, payload: { name: 'no account' } })).status,
        await status(a, '/v1/runtimes/2025.04', headers),
      ];
    },
    clean: [401, 401, 401],
    broken: [200, 200, 401],
  },
  'ind-auth-403-echo-key': {
    probe: async (a) => {
      const r = await call(a, { url: '/v1/runtimes/2025.04', headers: { ...AUTH, 'x-service-account': SECOND_ACCOUNT_ID } });
      return [r.status, r.text.includes(DEMO_KEY)];
    },
    clean: [403, false],
    broken: [403, true],
  },
  // RT
  'ind-rt-non-ascii-500': {
    probe: async (a) => [(await rt(a, '%E2%82%AC')).status, (await rt(a, '2024.0%C3%A9')).status, (await rt(a, '2024.13')).status],
    clean: [404, 404, 404],
    broken: [500, 500, 404],
  },
  'ind-rt-eol-day-first': {
    probe: async (a) => [(await rt(a, '2023.09')).body.runtimeEndOfLife, (await rt(a, '2024.02')).body.runtimeEndOfLife],
    clean: ['12/31/2026', '03/31/2027'],
    broken: ['31/12/2026', '03/31/2027'],
  },
  'ind-rt-removed-no-deps': {
    probe: async (a) => Promise.all(['2022.10', '2023.02', '2023.09'].map(async (id) => Object.keys((await rt(a, id)).body.dependencies).length)),
    clean: [10, 10, 11],
    broken: [0, 0, 11],
  },
  // ERR
  'ind-err-401-text-plain': {
    probe: async (a) => {
      const r401 = await call(a, { url: '/v1/runtimes/2025.04', headers: {} });
      return [r401.status, r401.type, r401.body?.statusCode, (await rt(a, 'nope')).type];
    },
    clean: [401, 'application/json; charset=utf-8', 401, 'application/json; charset=utf-8'],
    broken: [401, 'text/plain; charset=utf-8', 401, 'application/json; charset=utf-8'],
  },
  'ind-err-403-status-401': {
    probe: async (a) => {
      const r = await call(a, { url: '/v1/runtimes/2025.04', headers: { ...AUTH, 'x-service-account': SECOND_ACCOUNT_ID } });
      return [r.status, r.body.statusCode, r.body.error];
    },
    clean: [403, 403, 'Forbidden'],
    broken: [403, 401, 'Forbidden'],
  },
  'ind-err-check-404-notfound': {
    probe: async (a) => [
      (await call(a, { url: `/v1/checks/${UNKNOWN_CHECK}` })).body,
      (await put(a, { name: 'x' }, UNKNOWN_CHECK)).body.error,
      (await rt(a, 'nope')).body.error,
    ],
    clean: [{ statusCode: 404, error: 'Not Found', message: 'Check not found' }, 'Not Found', 'Not Found'],
    broken: [{ statusCode: 404, error: 'NotFound', message: 'Check not found' }, 'NotFound', 'Not Found'],
  },
  'ind-err-custom-429-wording': {
    probe: async (a, clock) => {
      const list = await burst(a, clock, 20, '/v1/runtimes');
      const r = await call(a, { url: '/v1/runtimes' });
      await burst(a, clock, 2, '/v1/runtimes/2025.04');
      const g = await rt(a, '2025.04');
      return [served(list), r.status, r.body.statusCode, r.body.error, g.status, g.body.error];
    },
    options: { rateLimitMax: 2 },
    clean: [20, 429, 429, 'Too Many Requests', 429, 'Too Many Requests'],
    broken: [20, 429, 429, 'Too many requests', 429, 'Too Many Requests'],
  },
  // RL
  'ind-rl-window-ms': {
    // 20 ms between requests: a 60 s window refuses the 6th of 6; a 60 ms one has reset by then.
    probe: async (a, clock) => burst(a, clock, 6, '/v1/runtimes/2025.04', 20),
    options: { rateLimitMax: 5, rateLimitWindowS: 60 },
    clean: [200, 200, 200, 200, 200, 429],
    broken: [200, 200, 200, 200, 200, 200],
  },
  'ind-rl-custom-off-by-one': {
    probe: async (a, clock) => served(await burst(a, clock, 22, '/v1/runtimes')),
    clean: 20,
    broken: 21,
  },
  'ind-rl-retry-after-ms': {
    probe: async (a, clock) => {
      await burst(a, clock, 2, '/v1/runtimes/2025.04');
      const r = await rt(a, '2025.04');
      return [r.status, r.headers['retry-after'], r.headers['x-ratelimit-reset']];
    },
    options: { rateLimitMax: 2 },
    clean: [429, '60', '60'],
    broken: [429, '60000', '60'],
  },
  // CU
  'ind-cu-description-bytes': {
    probe: async (a) => [
      await putStatus(a, { description: 'é'.repeat(500) }),
      await putStatus(a, { description: '😀'.repeat(500) }),
      await putStatus(a, { description: 'd'.repeat(500) }),
      await putStatus(a, { description: 'd'.repeat(501) }),
    ],
    clean: [200, 200, 200, 400],
    broken: [400, 400, 200, 400],
  },
  'ind-cu-location-pattern': {
    probe: async (a) => [
      await putStatus(a, { locations: ['us-east-3'] }),
      await putStatus(a, { locations: ['eu-central-2', 'us-east-1'] }),
      await putStatus(a, { locations: ['US-EAST-1'] }),
      await putStatus(a, { locations: ['mars-1'] }),
      await putStatus(a, { locations: ['af-south-1'] }),
    ],
    clean: [400, 400, 400, 400, 200],
    broken: [200, 200, 400, 400, 200],
  },
  'ind-cu-checktype-case': {
    probe: async (a) => [
      await putStatus(a, { checkType: 'api' }),
      await putStatus(a, { checkType: 'SMTP' }),
      await putStatus(a, { checkType: 'browser' }),
      (await getCheck(a)).checkType,
    ],
    clean: [400, 400, 400, 'API'],
    broken: [200, 400, 200, 'BROWSER'],
  },
  'ind-cu-flags-applied-early': {
    probe: async (a) => {
      const s = await putStatus(a, { name: 'rejected', activated: false, muted: true, tags: ['x'], locations: ['mars-1'] });
      const c = await getCheck(a);
      return [s, c.name, c.activated, c.muted, c.tags];
    },
    clean: [400, 'Public API health (GET /v1/status)', true, false, ['demo', 'contract-tests']],
    broken: [400, 'Public API health (GET /v1/status)', false, true, ['demo', 'contract-tests']],
  },
  // FO
  'ind-fo-stale-offset': {
    probe: async (a) => {
      const set = await putStatus(a, { frequencyOffset: 100 }); // frequency 10: 1..100
      const low = await putStatus(a, { frequency: 2 }); // 1..20: 100 no longer fits
      const high = await putStatus(a, { frequency: 120 }); // 1..2
      const zero = await putStatus(a, { frequency: 0 }); // 10, 20 or 30
      return [set, low, high, zero];
    },
    clean: [200, 400, 400, 400],
    broken: [200, 200, 200, 400],
  },
  'ind-fo-type-change-at-zero': {
    probe: async (a) => [
      await putStatus(a, { frequency: 0, frequencyOffset: 10 }),
      await putStatus(a, { checkType: 'BROWSER' }),
      await putStatus(a, { frequency: 0 }, SEEDED_BROWSER_CHECK_ID),
      (await getCheck(a)).checkType,
    ],
    clean: [200, 400, 400, 'API'],
    broken: [200, 200, 400, 'BROWSER'],
  },
  'ind-fo-null-offset': {
    probe: async (a) => [await putStatus(a, { frequencyOffset: null }), (await getCheck(a)).frequencyOffset, await putStatus(a, { frequencyOffset: 0 })],
    clean: [400, 1, 400],
    broken: [200, 1, 400],
  },
};

const AGENT_FAULTS = Object.keys(INDEPENDENT_FAULTS).filter((f) => f.startsWith('ind-agent-'));

test('independent faults: all in the catalogue, named ind-*, each with a probe here', () => {
  for (const f of Object.keys(INDEPENDENT_FAULTS)) expect(f).toMatch(/^ind-/);
  expect(Object.keys(INDEPENDENT_FAULTS).filter((f) => !(f in CASES) && !AGENT_FAULTS.includes(f))).toEqual([]);
  expect(Object.keys(INDEPENDENT_FAULTS)).toHaveLength(25);
  expectMeasured(INDEPENDENT_FAULTS, MEASURED);
});

for (const [fault, c] of Object.entries(CASES) as Array<[FaultName, Case]>) testCase(fault, c);

test('independent faults: the served document stays valid OpenAPI, and ordinary requests stay 200', async () => {
  // A service per fault, one after another: on a loaded machine (npm test runs its parts side by side) more than 30 s.
  test.setTimeout(120_000);
  await expectUsableWith(Object.keys(CASES) as FaultName[]);
});

// ---- agent faults: the agent as a child process on a free port -------------------------------------

test.describe.configure({ mode: 'parallel' });

test('independent agent fault ind-agent-late-draining: readiness 200 just after SIGTERM', async () => {
  expect(await afterSigterm([], at('/-/readiness', [100, 700]))).toEqual([503, 503]);
  expect(await afterSigterm(['ind-agent-late-draining'], at('/-/readiness', [100, 700]))).toEqual([200, 503]);
});

test('independent agent fault ind-agent-liveness-fails-before-exit: liveness 503 at the end of the drain', async () => {
  expect(await afterSigterm([], at('/-/liveness', [200, 1300]))).toEqual([200, 200]);
  expect(await afterSigterm(['ind-agent-liveness-fails-before-exit'], at('/-/liveness', [200, 1300]))).toEqual([200, 503]);
});
