// The ninth batch of independent faults (ind9-*, reference/independent-faults.ts INDEPENDENT_FAULTS_9):
// for each, one probe and what it observes on a clean service and with the fault injected, so the bug
// is shown to be there and the clean behaviour to be the documented one. The agent faults drive the
// agent's health handler on a port of the system's choice, and its port reading directly.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { healthHandler, healthPortOf } from '../../reference/agent/health';
import { parseFaultList } from '../../reference/faults';
import { type Case, testGeneration, UNKNOWN_CHECK } from './reference-fault-harness';
import { INDEPENDENT_FAULTS_9, PROBES_PER_SECOND } from '../../reference/independent-faults';
import { INDEPENDENT_FAULTS_9 as MEASURED } from '../faults/independent';
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

const CHECK_URL = `/v1/checks/${SEEDED_API_CHECK_ID}`;
const spec = async (app: FastifyInstance) => (await call(app, { url: '/openapi.json', headers: {} })).body;
const rt = (app: FastifyInstance, id: string) => call(app, { url: `/v1/runtimes/${id}` });
const status = async (app: FastifyInstance, url: string, headers: Record<string, string>) => (await call(app, { url, headers })).status;
const putStatus = async (app: FastifyInstance, body: unknown, id?: string) => (await put(app, body, id)).status;
/** Sends n requests one after another with these headers; returns the statuses. */
async function burst(app: FastifyInstance, n: number, url = '/v1/runtimes/2025.04', headers: Record<string, string> = { ...AUTH }) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await app.inject({ url, headers })).statusCode);
  return out;
}
const bearer = (key: string, account: string = DEMO_ACCOUNT_ID) => ({ authorization: `Bearer ${key}`, 'x-service-account': account });

const CASES: Record<keyof typeof INDEPENDENT_FAULTS_9, Case | 'agent'> = {
  // SPEC
  'ind9-spec-utf8-bom': {
    probe: async (a) => {
      const r = await call(a, { url: '/openapi.json', headers: {} });
      return [r.status, r.type, r.text.charCodeAt(0) === 0xfeff, r.body === undefined, JSON.parse(r.text.replace(/^\uFEFF/, '')).openapi];
    },
    clean: [200, 'application/json; charset=utf-8', false, false, '3.0.3'],
    broken: [200, 'application/json; charset=utf-8', true, true, '3.0.3'],
  },
  'ind9-spec-account-param-in-query': {
    probe: async (a) => {
      const params = (await spec(a)).paths['/v1/runtimes/{id}'].get.parameters as Array<{ name: string; in: string }>;
      return [params.map((p) => [p.name, p.in]), await status(a, '/v1/runtimes/2025.04', { ...AUTH })];
    },
    clean: [
      [
        ['id', 'path'],
        ['X-Service-Account', 'header'],
      ],
      200,
    ],
    broken: [
      [
        ['id', 'path'],
        ['X-Service-Account', 'query'],
      ],
      200,
    ],
  },
  'ind9-spec-404-closed-no-message': {
    probe: async (a) => {
      const schema = (await spec(a)).components.schemas.NotFoundError;
      const missing = await rt(a, '1999.01');
      return [schema.additionalProperties, Object.keys(schema.properties), missing.status, Object.keys(missing.body)];
    },
    clean: [undefined, ['statusCode', 'error', 'message'], 404, ['statusCode', 'error', 'message']],
    broken: [false, ['statusCode', 'error'], 404, ['statusCode', 'error', 'message']],
  },
  'ind9-spec-security-name-mismatch': {
    probe: async (a) => {
      const doc = await spec(a);
      return [Object.keys(doc.components.securitySchemes), doc.security, await status(a, '/v1/runtimes/2025.04', { ...AUTH })];
    },
    clean: [['Bearer'], [{ Bearer: [] }], 200],
    broken: [['bearerAuth'], [{ Bearer: [] }], 200],
  },
  // AUTH
  'ind9-auth-login-redirect': {
    probe: async (a) => {
      const bare = await call(a, { url: '/v1/runtimes/2025.04', headers: {} });
      const login = await call(a, { url: '/login', headers: {} });
      return [
        bare.status,
        bare.headers.location,
        await status(a, '/v1/runtimes/2025.04', { accept: '*/*' }),
        await status(a, '/v1/runtimes/2025.04', { accept: 'application/json' }),
        await status(a, CHECK_URL, { accept: '*/*', 'x-service-account': DEMO_ACCOUNT_ID }),
        login.status,
        login.type.split(';')[0],
        await status(a, '/v1/runtimes/2025.04', { ...AUTH }),
      ];
    },
    clean: [401, undefined, 401, 401, 401, 404, 'application/json', 200],
    broken: [302, '/login', 302, 401, 302, 200, 'text/html', 200],
  },
  'ind9-auth-malformed-key-fail-open': {
    probe: async (a) => [
      await status(a, '/v1/runtimes/2025.04', bearer('not-a-real-key')),
      await status(a, CHECK_URL, bearer('not-a-real-key')),
      await status(a, '/v1/runtimes/2025.04', bearer('not-a-real-key', AUTH2['x-service-account'])),
      await status(a, '/v1/runtimes/2025.04', bearer('mon_demo_0000000000000000')),
      await status(a, '/v1/runtimes/2025.04', bearer('not-a-real-key', OTHER_GUID)),
      await status(a, '/v1/runtimes/2025.04', { authorization: 'Bearer not-a-real-key' }),
    ],
    clean: [401, 401, 401, 401, 401, 401],
    broken: [200, 200, 200, 401, 401, 401],
  },
  'ind9-auth-update-legacy-basic': {
    probe: async (a) => {
      const basic = { authorization: `Basic ${Buffer.from(`${DEMO_KEY}:`).toString('base64')}`, 'x-service-account': DEMO_ACCOUNT_ID };
      const updated = await call(a, { method: 'PUT', url: CHECK_URL, payload: { name: 'via basic' }, headers: basic });
      return [updated.status, (await getCheck(a)).name, await status(a, '/v1/runtimes/2025.04', basic), await status(a, CHECK_URL, basic)];
    },
    clean: [401, 'Public API health (GET /v1/status)', 401, 401],
    broken: [200, 'via basic', 401, 401],
  },
  // RT
  'ind9-rt-eol-zero-based-month': {
    probe: async (a) => Promise.all(['2024.02', '2023.09', '2023.02', '2022.10', '2025.04'].map(async (id) => (await rt(a, id)).body.runtimeEndOfLife)),
    clean: ['03/31/2027', '12/31/2026', '06/30/2026', '02/28/2026', undefined],
    broken: ['02/31/2027', '11/31/2026', '05/30/2026', '01/28/2026', undefined],
  },
  'ind9-rt-deps-double-encoded': {
    probe: async (a) => {
      const legacy = (await rt(a, '2024.02')).body.dependencies;
      const current = (await rt(a, '2025.04')).body.dependencies;
      return [typeof legacy, typeof legacy === 'string' ? JSON.parse(legacy).lodash : legacy.lodash, typeof current];
    },
    clean: ['object', '4.17.21', 'object'],
    broken: ['string', '4.17.21', 'object'],
  },
  'ind9-rt-lookup-plain-object': {
    probe: async (a) => {
      const ctor = await rt(a, 'constructor');
      return [
        ctor.status,
        ctor.body,
        (await rt(a, 'toString')).status,
        (await rt(a, '__proto__')).status,
        (await rt(a, '1999.01')).status,
        (await rt(a, '2025.04')).body.name,
      ];
    },
    clean: [404, { statusCode: 404, error: 'Not Found', message: 'Runtime not found' }, 404, 404, 404, '2025.04'],
    broken: [200, { dependencies: {} }, 200, 200, 404, '2025.04'],
  },
  'ind9-rt-singleflight-route-key': {
    probe: async (a) => {
      const together = await Promise.all(['2024.02', '2025.04', '2026.04'].map(async (id) => (await rt(a, id)).body.name));
      const alone = [(await rt(a, '2025.04')).body.name, (await rt(a, '2026.04')).body.name];
      return [together, alone];
    },
    clean: [
      ['2024.02', '2025.04', '2026.04'],
      ['2025.04', '2026.04'],
    ],
    broken: [
      ['2024.02', '2024.02', '2024.02'],
      ['2025.04', '2026.04'],
    ],
  },
  // ERR
  'ind9-err-404-nbsp': {
    probe: async (a) => [(await rt(a, '1999.01')).body.error, (await call(a, { url: `/v1/checks/${UNKNOWN_CHECK}` })).body.error],
    clean: ['Not Found', 'Not Found'],
    broken: ['Not\u00a0Found', 'Not Found'],
  },
  'ind9-err-two-problems-status': {
    probe: async (a) => {
      const both = await put(a, { groupOrder: -1 }, UNKNOWN_CHECK);
      const missing = await put(a, { name: 'x' }, UNKNOWN_CHECK);
      const invalid = await put(a, { groupOrder: -1 });
      return [both.status, both.body.statusCode, both.body.error, missing.status, missing.body.statusCode, invalid.status, invalid.body.statusCode];
    },
    clean: [404, 404, 'Not Found', 404, 404, 400, 400],
    broken: [404, 400, 'Bad Request', 404, 404, 400, 400],
  },
  // RL
  'ind9-rl-checks-counted-twice': {
    probe: async (a, clock: FakeClock) => {
      const checks = await burst(a, 5, CHECK_URL);
      clock.tick(60_000);
      return [checks, await burst(a, 5)];
    },
    options: { rateLimitMax: 4, rateLimitWindowS: 60 },
    clean: [
      [200, 200, 200, 200, 429],
      [200, 200, 200, 200, 429],
    ],
    broken: [
      [200, 200, 429, 429, 429],
      [200, 200, 200, 200, 429],
    ],
  },
  'ind9-rl-cache-before-limiter': {
    probe: async (a, clock: FakeClock) => {
      const same = await burst(a, 6);
      const other = await status(a, CHECK_URL, { ...AUTH });
      clock.tick(60_000);
      const varied = [];
      for (const id of ['2025.04', '2024.09', '2024.02', '2023.09']) varied.push((await rt(a, id)).status);
      return [same, other, varied];
    },
    options: { rateLimitMax: 3, rateLimitWindowS: 60 },
    clean: [[200, 200, 200, 429, 429, 429], 429, [200, 200, 200, 429]],
    broken: [[200, 200, 200, 200, 200, 200], 200, [200, 200, 200, 429]],
  },
  'ind9-rl-reset-wall-clock-minute': {
    // The fake clock starts at 1,000 s: 40 s into an epoch-aligned minute.
    probe: async (a, clock: FakeClock) => {
      const first = await rt(a, '2025.04');
      await rt(a, '2025.04');
      clock.tick(25_000);
      const refused = await rt(a, '2025.04');
      return [String(first.headers['x-ratelimit-reset']), refused.status, String(refused.headers['x-ratelimit-reset']), String(refused.headers['retry-after'])];
    },
    options: { rateLimitMax: 2, rateLimitWindowS: 60 },
    clean: ['60', 429, '35', '35'],
    broken: ['20', 429, '55', '35'],
  },
  // CU
  'ind9-cu-utf8mb3-astral': {
    probe: async (a) => {
      const answer = await put(a, { name: 'Deploy 🚀', description: 'ok ✓ 😀', tags: ['🔥', 'plain'] });
      const check = await getCheck(a);
      return [answer.status, answer.body.name, check.name, check.description, check.tags];
    },
    clean: [200, 'Deploy 🚀', 'Deploy 🚀', 'ok ✓ 😀', ['🔥', 'plain']],
    broken: [200, 'Deploy 🚀', 'Deploy ?', 'ok ✓ ?', ['?', 'plain']],
  },
  'ind9-cu-browser-description-unbounded': {
    probe: async (a) => [
      await putStatus(a, { description: 'x'.repeat(501) }, SEEDED_BROWSER_CHECK_ID),
      await putStatus(a, { description: 'x'.repeat(501) }),
      await putStatus(a, { description: 'x'.repeat(500) }, SEEDED_BROWSER_CHECK_ID),
      await putStatus(a, { description: 42 }, SEEDED_BROWSER_CHECK_ID),
      await putStatus(a, { description: 'x'.repeat(501), groupOrder: -1 }, SEEDED_BROWSER_CHECK_ID),
      (await getCheck(a, SEEDED_BROWSER_CHECK_ID)).description.length,
    ],
    clean: [400, 400, 200, 400, 400, 500],
    broken: [200, 400, 200, 400, 400, 500],
  },
  'ind9-cu-shallow-copy-arrays': {
    probe: async (a) => {
      const schemaRefused = await putStatus(a, { locations: ['eu-west-1'], tags: ['x'], groupOrder: -1 });
      const afterSchema = (await getCheck(a)).locations;
      const offsetRefused = await putStatus(a, { locations: ['eu-west-1'], tags: ['x'], frequency: 1, frequencyOffset: 500 });
      const check = await getCheck(a);
      return [schemaRefused, afterSchema, offsetRefused, check.locations, check.tags, check.frequency];
    },
    clean: [400, SEEDED_API_CHECK.locations, 400, SEEDED_API_CHECK.locations, SEEDED_API_CHECK.tags, 10],
    broken: [400, SEEDED_API_CHECK.locations, 400, ['eu-west-1'], ['x'], 10],
  },
  'ind9-cu-runtime-no-downgrade': {
    probe: async (a) => [
      await putStatus(a, { runtimeId: '2026.04' }),
      await putStatus(a, { runtimeId: '2025.04' }),
      await putStatus(a, { runtimeId: '2022.10' }),
      (await getCheck(a)).runtimeId,
    ],
    clean: [200, 200, 200, '2022.10'],
    broken: [200, 400, 400, '2026.04'],
  },
  // FO
  'ind9-fo-refused-frequency-remembered': {
    // The API check is stored at frequency 10 (offsets 1..100).
    probe: async (a) => [
      await putStatus(a, { frequency: 1, frequencyOffset: 500 }),
      await putStatus(a, { frequencyOffset: 50 }),
      await putStatus(a, { frequency: 10, frequencyOffset: 50 }),
      await putStatus(a, { frequencyOffset: 60 }),
      (await getCheck(a)).frequencyOffset,
    ],
    clean: [400, 200, 200, 200, 60],
    broken: [400, 400, 200, 200, 60],
  },
  'ind9-fo-hourly-in-hours': {
    probe: async (a) => [
      await putStatus(a, { frequency: 120, frequencyOffset: 2 }),
      await putStatus(a, { frequency: 1440, frequencyOffset: 24 }),
      await putStatus(a, { frequency: 1440, frequencyOffset: 1 }),
      await putStatus(a, { frequency: 1440, frequencyOffset: 25 }),
      await putStatus(a, { frequency: 60, frequencyOffset: 600 }),
    ],
    clean: [200, 200, 200, 400, 200],
    broken: [400, 400, 200, 400, 200],
  },
  'ind9-fo-unchanged-loose-equality': {
    // The API check is stored with frequencyOffset 1.
    probe: async (a) => [
      await putStatus(a, { frequencyOffset: '1' }),
      await putStatus(a, { frequencyOffset: true }),
      await putStatus(a, { frequencyOffset: [1] }),
      await putStatus(a, { frequencyOffset: '5' }),
      await putStatus(a, { frequencyOffset: 1 }),
      (await getCheck(a)).frequencyOffset,
    ],
    clean: [400, 400, 400, 400, 200, 1],
    broken: [200, 200, 200, 400, 200, 1],
  },
  // AG
  'ind9-agent-port-four-digits': 'agent',
  'ind9-agent-probe-throttle': 'agent',
};

testGeneration(9, INDEPENDENT_FAULTS_9, MEASURED, CASES, [
  // Its document is no JSON text at all (its own case above shows it).
  'ind9-spec-utf8-bom',
]);

// ---- agent faults: the health handler on a port of the system's choice, and the port reading -----------

async function withAgent<T>(faults: string[], use: (get: (path: string) => Promise<number>) => Promise<T>): Promise<T> {
  const server: Server = createServer(healthHandler({ drainingSince: null, drainMs: 300 }, parseFaultList(faults)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await use(async (path) => (await fetch(`http://127.0.0.1:${port}${path}`)).status);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('independent agent fault ind9-agent-probe-throttle: more than 5 probes a second to one endpoint answer 429', async () => {
  const probe = async (get: (path: string) => Promise<number>) => {
    const quick: number[] = [];
    for (let i = 0; i < PROBES_PER_SECOND + 2; i++) quick.push(await get('/-/liveness'));
    const others = [await get('/health'), await get('/-/readiness')];
    await sleep(1100);
    return [quick, others, await get('/-/liveness')];
  };
  expect(await withAgent([], probe)).toEqual([[200, 200, 200, 200, 200, 200, 200], [200, 200], 200]);
  expect(await withAgent(['ind9-agent-probe-throttle'], probe)).toEqual([[200, 200, 200, 200, 200, 429, 429], [200, 200], 200]);
});

test('independent agent fault ind9-agent-port-four-digits: a five-digit AGENT_HEALTH_PORT falls back to 8081', () => {
  const read = (faults: string[]) => {
    const f = parseFaultList(faults);
    return [
      healthPortOf('18081', 18081, f),
      healthPortOf('9000', 9000, f),
      healthPortOf(undefined, 8081, f),
      healthPortOf('0', 0, f),
      healthPortOf('65535', 65535, f),
    ];
  };
  expect(read([])).toEqual([18081, 9000, 8081, 0, 65535]);
  expect(read(['ind9-agent-port-four-digits'])).toEqual([8081, 9000, 8081, 0, 8081]);
});
