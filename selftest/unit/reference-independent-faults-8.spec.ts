// The eighth batch of independent faults (ind8-*, reference/independent-faults.ts INDEPENDENT_FAULTS_8):
// for each, one probe and what it observes on a clean service and with the fault injected, so the bug
// is shown to be there and the clean behaviour to be the documented one. The agent faults drive the
// agent's health handler on a port of the system's choice.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { healthHandler } from '../../reference/agent/health';
import { parseFaultList } from '../../reference/faults';
import { type Case, testGeneration, UNKNOWN_CHECK } from './reference-fault-harness';
import { ERROR_WINDOW_MS, INDEPENDENT_FAULTS_8 } from '../../reference/independent-faults';
import { INDEPENDENT_FAULTS_8 as MEASURED } from '../faults/independent';
import {
  AUTH,
  AUTH2,
  call,
  DEMO_ACCOUNT_ID,
  DEMO_KEY,
  getCheck,
  put,
  SEEDED_API_CHECK_ID,
  SEEDED_BROWSER_CHECK_ID,
  type FakeClock,
  OTHER_GUID,
  SEEDED_API_CHECK,
} from '../../reference/testing';

const spec = async (app: FastifyInstance) => (await call(app, { url: '/openapi.json', headers: {} })).body;
const rt = (app: FastifyInstance, id: string) => call(app, { url: `/v1/runtimes/${id}` });
const status = async (app: FastifyInstance, url: string, headers: Record<string, string>) => (await call(app, { url, headers })).status;
const putStatus = async (app: FastifyInstance, body: unknown, id?: string) => (await put(app, body, id)).status;
/** Sends n requests one after another with these headers; returns the statuses. */
async function burst(app: FastifyInstance, n: number, headers: Record<string, string> = { ...AUTH }, url = '/v1/runtimes/2025.04') {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await app.inject({ url, headers })).statusCode);
  return out;
}
const upper = (guid: string) => guid.toUpperCase();

const CASES: Record<keyof typeof INDEPENDENT_FAULTS_8, Case | 'agent'> = {
  // SPEC
  'ind8-spec-runtime-path-trailing-slash': {
    probe: async (a) => {
      const paths = (await spec(a)).paths;
      return [
        Object.hasOwn(paths, '/v1/runtimes/{id}'),
        Object.hasOwn(paths, '/v1/runtimes/{id}/'),
        await status(a, '/v1/runtimes/2025.04', { ...AUTH }),
        await status(a, '/v1/runtimes/2025.04/', { ...AUTH }),
      ];
    },
    clean: [true, false, 200, 404],
    broken: [false, true, 200, 404],
  },
  'ind8-spec-404-status-enum-quoted': {
    probe: async (a) => {
      const schema = (await spec(a)).components.schemas.NotFoundError.properties.statusCode;
      const missing = await rt(a, '1999.01');
      return [schema.type, schema.enum, missing.status, missing.body.statusCode, schema.enum.includes(missing.body.statusCode)];
    },
    clean: ['number', [404], 404, 404, true],
    broken: ['number', ['404'], 404, 404, false],
  },
  'ind8-spec-runtime-stage-required': {
    probe: async (a) => {
      const runtime = (await spec(a)).components.schemas.Runtime;
      return [runtime.required, (await rt(a, '2025.04')).status];
    },
    clean: [['name', 'multiStepSupport', 'nodeJsVersion', 'dependencies'], 200],
    broken: [['name', 'multiStepSupport', 'nodeJsVersion', 'dependencies', 'stage'], 200],
  },
  // AUTH
  'ind8-auth-account-remembered': {
    probe: async (a) => {
      const keyOnly = { authorization: `Bearer ${DEMO_KEY}` };
      return [
        await status(a, '/v1/runtimes/2025.04', keyOnly),
        await status(a, '/v1/runtimes/2025.04', { ...AUTH }),
        await status(a, '/v1/runtimes/2025.04', keyOnly),
        await status(a, `/v1/checks/${SEEDED_API_CHECK_ID}`, keyOnly),
        await status(a, '/v1/runtimes/2025.04', { authorization: AUTH2.authorization }),
      ];
    },
    clean: [401, 200, 401, 401, 401],
    broken: [401, 200, 200, 200, 401],
  },
  'ind8-auth-account-exists-only': {
    probe: async (a) => [
      await status(a, '/v1/runtimes/2025.04', { ...AUTH, 'x-service-account': AUTH2['x-service-account'] }),
      await status(a, '/v1/runtimes/2025.04', { ...AUTH, 'x-service-account': OTHER_GUID }),
      await status(a, `/v1/checks/${SEEDED_API_CHECK_ID}`, { ...AUTH, 'x-service-account': AUTH2['x-service-account'] }),
      await status(a, `/v1/checks/${SEEDED_API_CHECK_ID}`, { ...AUTH }),
    ],
    clean: [403, 403, 403, 200],
    broken: [200, 403, 404, 200],
  },
  'ind8-auth-guid-uppercase-refused': {
    probe: async (a) => [
      await status(a, '/v1/runtimes/2025.04', { ...AUTH, 'x-service-account': upper(DEMO_ACCOUNT_ID) }),
      await status(a, '/v1/runtimes/2025.04', { ...AUTH }),
      await status(a, '/v1/runtimes/2025.04', { ...AUTH, 'x-service-account': 'not-a-guid' }),
      await status(a, '/v1/runtimes/2025.04', { ...AUTH, 'x-service-account': upper(OTHER_GUID) }),
    ],
    clean: [200, 200, 400, 403],
    broken: [400, 200, 400, 400],
  },
  // RT
  'ind8-rt-json-suffix-stripped': {
    probe: async (a) => {
      const suffixed = await rt(a, '2025.04.json');
      return [suffixed.status, suffixed.body.name ?? suffixed.body.error, (await rt(a, '2025.04')).status, (await rt(a, '2025.04.xml')).status];
    },
    clean: [404, 'Not Found', 200, 404],
    broken: [200, '2025.04', 200, 404],
  },
  'ind8-rt-cache-key-year': {
    probe: async (a) => Promise.all(['2024.02', '2024.09', '2025.04', '2024.09'].map(async (id) => (await rt(a, id)).body.name)),
    clean: ['2024.02', '2024.09', '2025.04', '2024.09'],
    broken: ['2024.02', '2024.02', '2025.04', '2024.02'],
  },
  'ind8-rt-stage-past-eol-computed': {
    // 2022.10 and 2023.02 ended in 2026 (02/28, 06/30); 2025.04 has no end of life.
    probe: async (a) => Promise.all(['2022.10', '2023.02', '2025.04'].map(async (id) => (await rt(a, id)).body.stage)),
    clean: ['REMOVED', 'REMOVED', 'STABLE'],
    broken: ['END_OF_LIFE', 'END_OF_LIFE', 'STABLE'],
  },
  'ind8-rt-deps-npm-ls-shape': {
    probe: async (a) => [(await rt(a, '2026.04')).body.dependencies['@playwright/test'], (await rt(a, '2025.04')).body.dependencies['@playwright/test']],
    clean: ['1.58.2', '1.51.1'],
    broken: [{ version: '1.58.2' }, '1.51.1'],
  },
  // ERR
  'ind8-err-400-duplicate-status-key': {
    probe: async (a) => {
      const refused = await put(a, { groupOrder: -1 });
      const missing = await put(a, { name: 'x' }, UNKNOWN_CHECK);
      return [refused.status, refused.body.statusCode, refused.text.split('"statusCode"').length - 1, missing.status, missing.body.statusCode];
    },
    clean: [400, 400, 1, 404, 404],
    broken: [400, 422, 2, 404, 404],
  },
  'ind8-err-405-empty-body': {
    probe: async (a) => {
      const del = await call(a, { method: 'DELETE', url: '/v1/runtimes/2025.04' });
      const post = await call(a, { method: 'POST', url: `/v1/checks/${SEEDED_API_CHECK_ID}` });
      return [del.status, del.type, del.text, del.headers.allow, post.status, post.type, (await rt(a, '2025.04')).status];
    },
    clean: [
      404,
      'application/json; charset=utf-8',
      JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'Route not found' }),
      undefined,
      404,
      'application/json; charset=utf-8',
      200,
    ],
    broken: [405, '', '', 'GET, HEAD', 405, '', 200],
  },
  'ind8-err-429-attributes-entries': {
    probe: async (a) => {
      await burst(a, 1);
      const refused = await rt(a, '2025.04');
      return [refused.status, refused.body.error, Array.isArray(refused.body.attributes), refused.body.attributes];
    },
    options: { rateLimitMax: 1, rateLimitWindowS: 60 },
    clean: [429, 'Too Many Requests', false, { limit: 1, windowSeconds: 60 }],
    broken: [
      429,
      'Too Many Requests',
      true,
      [
        ['limit', 1],
        ['windowSeconds', 60],
      ],
    ],
  },
  // RL
  'ind8-rl-429-headers-next-window': {
    probe: async (a, clock: FakeClock) => {
      await burst(a, 2);
      clock.tick(10_000);
      const refused = await rt(a, '2025.04');
      return [
        refused.status,
        String(refused.headers['x-ratelimit-limit']),
        String(refused.headers['x-ratelimit-remaining']),
        String(refused.headers['x-ratelimit-reset']),
      ];
    },
    options: { rateLimitMax: 2, rateLimitWindowS: 60 },
    clean: [429, '2', '0', '50'],
    broken: [429, '2', '2', '60'],
  },
  'ind8-rl-bucket-raw-authorization': {
    probe: async (a) => {
      const as = (authorization: string) => ({ authorization, 'x-service-account': DEMO_ACCOUNT_ID });
      return [await burst(a, 3, as(`Bearer ${DEMO_KEY}`)), await burst(a, 3, as(`bearer ${DEMO_KEY}`)), await burst(a, 3, as(`Bearer  ${DEMO_KEY}`))];
    },
    options: { rateLimitMax: 2, rateLimitWindowS: 60 },
    clean: [
      [200, 200, 429],
      [429, 429, 429],
      [429, 429, 429],
    ],
    broken: [
      [200, 200, 429],
      [200, 200, 429],
      [200, 200, 429],
    ],
  },
  'ind8-rl-ban-403-after-refusals': {
    probe: async (a, clock: FakeClock) => {
      const first = await burst(a, 7);
      const body = (await rt(a, '2025.04')).body;
      clock.tick(60_000);
      return [first, body.statusCode, await burst(a, 3)];
    },
    options: { rateLimitMax: 2, rateLimitWindowS: 60 },
    clean: [[200, 200, 429, 429, 429, 429, 429], 429, [200, 200, 429]],
    broken: [[200, 200, 429, 429, 429, 403, 403], 403, [200, 200, 429]],
  },
  // CU
  'ind8-cu-deep-merge-arrays': {
    probe: async (a) => {
      const statuses = [await putStatus(a, { locations: ['eu-west-1'] }), await putStatus(a, { tags: ['renamed'] })];
      const check = await getCheck(a);
      return [statuses, check.locations, check.tags];
    },
    clean: [[200, 200], ['eu-west-1'], ['renamed']],
    broken: [
      [200, 200],
      ['eu-west-1', 'us-east-1'],
      ['renamed', 'contract-tests'],
    ],
  },
  'ind8-cu-concurrent-lost-update': {
    probe: async (a) => {
      const statuses = await Promise.all([putStatus(a, { name: 'renamed' }), putStatus(a, { tags: ['retagged'] })]);
      const check = await getCheck(a);
      return [statuses, check.name, check.tags];
    },
    clean: [[200, 200], 'renamed', ['retagged']],
    broken: [[200, 200], SEEDED_API_CHECK.name, ['retagged']],
  },
  'ind8-cu-description-null-500': {
    probe: async (a) => [
      await putStatus(a, { description: 'short' }),
      await putStatus(a, { description: null }),
      await putStatus(a, { description: 'x'.repeat(501) }),
      await putStatus(a, { description: 'é'.repeat(500) }),
    ],
    clean: [200, 200, 400, 200],
    broken: [200, 500, 400, 200],
  },
  'ind8-cu-locations-contains': {
    probe: async (a) => [
      await putStatus(a, { locations: ['mars-1'] }),
      await putStatus(a, { locations: [] }),
      await putStatus(a, { locations: ['eu-west-1', 'mars-1'] }),
      (await getCheck(a)).locations,
    ],
    clean: [400, 400, 400, SEEDED_API_CHECK.locations],
    broken: [400, 400, 200, ['eu-west-1', 'mars-1']],
  },
  // FO
  'ind8-fo-offset-before-frequency-key': {
    // The API check is stored at frequency 10 (offsets 1..100); the body's key order is kept by JSON.stringify.
    probe: async (a) => [
      await putStatus(a, { frequencyOffset: 10, frequency: 0 }, SEEDED_BROWSER_CHECK_ID),
      await putStatus(a, { frequency: 120, frequencyOffset: 50 }),
      await putStatus(a, { frequencyOffset: 150, frequency: 15 }),
      await putStatus(a, { frequencyOffset: 5, frequency: 10 }),
      await putStatus(a, { frequencyOffset: 50, frequency: 120 }),
    ],
    clean: [400, 400, 200, 200, 400],
    broken: [400, 400, 400, 200, 200],
  },
  'ind8-fo-zero-denylist-browser': {
    probe: async (a) => [
      await putStatus(a, { frequency: 0, frequencyOffset: 20 }),
      await putStatus(a, { frequency: 0, frequencyOffset: 10 }, SEEDED_BROWSER_CHECK_ID),
      await putStatus(a, { checkType: 'MULTI_STEP', frequency: 0, frequencyOffset: 10 }, SEEDED_BROWSER_CHECK_ID),
      await putStatus(a, { checkType: 'TCP' }),
      (await getCheck(a)).checkType,
    ],
    clean: [200, 400, 400, 400, 'API'],
    broken: [200, 400, 200, 200, 'TCP'],
  },
  'ind8-fo-zero-switch-fallthrough': {
    probe: async (a) => [
      await putStatus(a, { frequency: 0, frequencyOffset: 10 }),
      await putStatus(a, { frequency: 0, frequencyOffset: 30 }),
      await putStatus(a, { frequency: 0, frequencyOffset: 15 }),
      await putStatus(a, { frequency: 10, frequencyOffset: 100 }),
      await putStatus(a, { frequency: 10, frequencyOffset: 101 }),
    ],
    clean: [200, 200, 400, 200, 400],
    broken: [400, 400, 400, 200, 400],
  },
  // AG
  'ind8-agent-liveness-after-error': 'agent',
  'ind8-agent-health-accept-json': 'agent',
};

testGeneration(8, INDEPENDENT_FAULTS_8, MEASURED, CASES);

// ---- agent faults: the health handler on a port of the system's choice ------------------------------

async function withAgent<T>(faults: string[], use: (get: (path: string, headers?: Record<string, string>) => Promise<number>) => Promise<T>): Promise<T> {
  const server: Server = createServer(healthHandler({ drainingSince: null, drainMs: 300 }, parseFaultList(faults)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await use(async (path, headers) => (await fetch(`http://127.0.0.1:${port}${path}`, { headers })).status);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('independent agent fault ind8-agent-liveness-after-error: liveness 503 for a second after a 404', async () => {
  const probe = async (get: (path: string) => Promise<number>) => {
    const before = await get('/-/liveness');
    const missing = await get('/-/nothing-here');
    const after = [await get('/-/liveness'), await get('/-/readiness'), await get('/health')];
    await sleep(ERROR_WINDOW_MS + 200);
    return [before, missing, after, await get('/-/liveness')];
  };
  expect(await withAgent([], probe)).toEqual([200, 404, [200, 200, 200], 200]);
  expect(await withAgent(['ind8-agent-liveness-after-error'], probe)).toEqual([200, 404, [503, 200, 200], 200]);
});

test('independent agent fault ind8-agent-health-accept-json: /health 406 unless Accept names application/json', async () => {
  const probe = async (get: (path: string, headers?: Record<string, string>) => Promise<number>) => [
    await get('/health', { accept: '*/*' }),
    await get('/health', { accept: 'text/plain' }),
    await get('/health', { accept: 'application/json' }),
    await get('/-/liveness', { accept: '*/*' }),
    await get('/-/readiness', { accept: '*/*' }),
  ];
  expect(await withAgent([], probe)).toEqual([200, 200, 200, 200, 200]);
  expect(await withAgent(['ind8-agent-health-accept-json'], probe)).toEqual([406, 406, 200, 200, 200]);
});
