// The seventh batch of independent faults (ind7-*, reference/independent-faults.ts INDEPENDENT_FAULTS_7):
// for each, one probe and what it observes on a clean service and with the fault injected, so the bug
// is shown to be there and the clean behaviour to be the documented one. Agent faults run the agent.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { type Case, testGeneration, UNKNOWN_CHECK } from './reference-fault-harness';
import { INDEPENDENT_FAULTS_7 } from '../../reference/independent-faults';
import { INDEPENDENT_FAULTS_7 as MEASURED } from '../faults/independent';
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

const NIL_GUID = '00000000-0000-0000-0000-000000000000';
const spec = async (app: FastifyInstance) => (await call(app, { url: '/openapi.json', headers: {} })).body;
const rt = (app: FastifyInstance, id: string) => call(app, { url: `/v1/runtimes/${id}` });
const status = async (app: FastifyInstance, url: string, headers: Record<string, string>, method: 'GET' | 'HEAD' = 'GET') =>
  (await call(app, { method, url, headers })).status;
const putStatus = async (app: FastifyInstance, body: unknown, id?: string) => (await put(app, body, id)).status;
/** Sends n requests one after another, the clock moving `tickMs` before each; returns the statuses. */
async function burst(app: FastifyInstance, clock: FakeClock, n: number, url = '/v1/runtimes/2025.04', tickMs = 0) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    clock.tick(tickMs);
    out.push((await app.inject({ url, headers: { ...AUTH } })).statusCode);
  }
  return out;
}

const CASES: Record<keyof typeof INDEPENDENT_FAULTS_7, Case | 'agent'> = {
  // SPEC
  'ind7-spec-runtime-security-empty': {
    probe: async (a) => [(await spec(a)).paths['/v1/runtimes/{id}'].get.security, await status(a, '/v1/runtimes/2025.04', {})],
    clean: [undefined, 401],
    broken: [[], 401],
  },
  'ind7-spec-nullable-type-array': {
    probe: async (a) => {
      const doc = await spec(a);
      const valid = await SwaggerParser.validate(structuredClone(doc)).then(
        () => 'valid',
        () => 'invalid',
      );
      return [valid, doc.components.schemas.CheckUpdate.properties.description.type, await putStatus(a, { description: null })];
    },
    clean: ['valid', 'string', 200],
    broken: ['invalid', ['string', 'null'], 200],
  },
  'ind7-spec-429-attributes-string': {
    probe: async (a, clock) => {
      await burst(a, clock, 1);
      const refused = await rt(a, '2025.04');
      return [(await spec(a)).components.schemas.TooManyRequestsError.properties.attributes.type, refused.status, typeof refused.body.attributes];
    },
    options: { rateLimitMax: 1 },
    clean: ['object', 429, 'object'],
    broken: ['string', 429, 'object'],
  },
  'ind7-spec-offset-snake-case': {
    probe: async (a) => {
      const props = Object.keys((await spec(a)).components.schemas.CheckUpdate.properties);
      return [
        props.includes('frequencyOffset'),
        props.includes('frequency_offset'),
        await putStatus(a, { frequencyOffset: 5 }),
        (await getCheck(a)).frequencyOffset,
      ];
    },
    clean: [true, false, 200, 5],
    broken: [false, true, 200, 5],
  },
  // AUTH
  'ind7-auth-head-unauthenticated': {
    probe: async (a) => [
      await status(a, '/v1/runtimes/2025.04', {}, 'HEAD'),
      await status(a, '/v1/runtimes/2025.04', { 'x-service-account': DEMO_ACCOUNT_ID }, 'HEAD'),
      await status(a, '/v1/runtimes/2025.04', {}),
      await status(a, '/v1/runtimes/2025.04', { ...AUTH }, 'HEAD'),
    ],
    clean: [401, 401, 401, 200],
    broken: [200, 200, 401, 200],
  },
  'ind7-auth-nil-guid-default-account': {
    probe: async (a) =>
      Promise.all([NIL_GUID, OTHER_GUID, AUTH2['x-service-account']].map((v) => status(a, '/v1/runtimes/2025.04', { ...AUTH, 'x-service-account': v }))),
    clean: [403, 403, 403],
    broken: [200, 403, 403],
  },
  'ind7-auth-429-attributes-key': {
    probe: async (a, clock) => {
      await burst(a, clock, 1);
      const refused = await rt(a, '2025.04');
      return [refused.status, refused.text.includes(DEMO_KEY), refused.body.error];
    },
    options: { rateLimitMax: 1 },
    clean: [429, false, 'Too Many Requests'],
    broken: [429, true, 'Too Many Requests'],
  },
  // RT
  'ind7-rt-cache-miss-404': {
    probe: async (a) => {
      const first = await rt(a, '2025.04');
      return [first.status, first.body.error, (await rt(a, '2025.04')).status, (await rt(a, '2024.09')).status, (await rt(a, '2024.09')).status];
    },
    clean: [200, undefined, 200, 200, 200],
    broken: [404, 'Not Found', 200, 404, 200],
  },
  'ind7-rt-multistep-omitempty': {
    probe: async (a) => [
      (await rt(a, '2022.10')).body.multiStepSupport,
      Object.hasOwn((await rt(a, '2023.02')).body, 'multiStepSupport'),
      (await rt(a, '2026.04')).body.multiStepSupport,
    ],
    clean: [false, true, true],
    broken: [undefined, false, true],
  },
  'ind7-rt-eol-locale-unpadded': {
    probe: async (a) => Promise.all(['2024.02', '2022.10', '2023.09'].map(async (id) => (await rt(a, id)).body.runtimeEndOfLife)),
    clean: ['03/31/2027', '02/28/2026', '12/31/2026'],
    broken: ['3/31/2027', '2/28/2026', '12/31/2026'],
  },
  'ind7-rt-malformed-id-400': {
    probe: async (a) => {
      const latest = await rt(a, 'latest');
      return [latest.status, latest.body.statusCode, (await rt(a, '2024.9')).status, (await rt(a, '2019.01')).status, (await rt(a, '2025.04')).status];
    },
    clean: [404, 404, 404, 404, 200],
    broken: [400, 400, 400, 404, 200],
  },
  // ERR
  'ind7-err-404-template-after-401': {
    probe: async (a) => {
      const before = await rt(a, 'nope');
      const refused = await call(a, { url: '/v1/runtimes/2025.04', headers: { 'x-service-account': DEMO_ACCOUNT_ID } });
      const after = await rt(a, 'nope');
      return [
        [before.status, before.body.statusCode, before.body.error],
        [refused.status, refused.body.statusCode],
        [after.status, after.body.statusCode, after.body.error],
      ];
    },
    clean: [
      [404, 404, 'Not Found'],
      [401, 401],
      [404, 404, 'Not Found'],
    ],
    broken: [
      [404, 404, 'Not Found'],
      [401, 401],
      [404, 401, 'Unauthorized'],
    ],
  },
  'ind7-err-foreign-check-403-body-404': {
    probe: async (a) => {
      const foreign = await call(a, { url: `/v1/checks/${SEEDED_API_CHECK_ID}`, headers: { ...AUTH2 } });
      const unknown = await call(a, { url: `/v1/checks/${UNKNOWN_CHECK}`, headers: { ...AUTH2 } });
      return [foreign.status, foreign.body.statusCode, unknown.status, unknown.body.statusCode];
    },
    clean: [404, 404, 404, 404],
    broken: [403, 404, 404, 404],
  },
  // RL
  'ind7-rl-reset-counts-twice': {
    probe: async (a, clock) => {
      const first = await burst(a, clock, 4);
      clock.tick(60_000);
      return [first, await burst(a, clock, 4)];
    },
    options: { rateLimitMax: 3, rateLimitWindowS: 60 },
    clean: [
      [200, 200, 200, 429],
      [200, 200, 200, 429],
    ],
    broken: [
      [200, 200, 200, 429],
      [200, 200, 429, 429],
    ],
  },
  'ind7-rl-counter-lost-update': {
    // Eight requests at once against a limit of 3: each reads the count before any has written it back.
    probe: async (a) => {
      const statuses = await Promise.all(Array.from({ length: 8 }, () => status(a, '/v1/runtimes/2025.04', { ...AUTH })));
      return statuses.filter((s) => s === 200).length > 3;
    },
    options: { rateLimitMax: 3 },
    clean: false,
    broken: true,
  },
  'ind7-rl-retry-after-epoch-date': {
    probe: async (a, clock) => {
      await burst(a, clock, 1);
      const refused = await rt(a, '2025.04');
      return [refused.status, refused.headers['retry-after']];
    },
    options: { rateLimitMax: 1, rateLimitWindowS: 60 },
    clean: [429, '60'],
    broken: [429, 'Thu, 01 Jan 1970 00:01:00 GMT'],
  },
  // CU
  'ind7-cu-stale-read-cache': {
    probe: async (a) => [(await getCheck(a)).name, await putStatus(a, { name: 'renamed' }), (await getCheck(a)).name],
    clean: [SEEDED_API_CHECK.name, 200, 'renamed'],
    broken: [SEEDED_API_CHECK.name, 200, SEEDED_API_CHECK.name],
  },
  'ind7-cu-grouporder-zero-refused': {
    probe: async (a) => [
      await putStatus(a, { groupOrder: 0 }),
      await putStatus(a, { groupOrder: 3 }),
      await putStatus(a, { groupOrder: -1 }),
      (await getCheck(a)).groupOrder,
    ],
    clean: [200, 200, 400, 3],
    broken: [400, 200, 400, 3],
  },
  'ind7-cu-runtime-range-check': {
    probe: async (a) => [
      await putStatus(a, { runtimeId: '2025.01' }),
      await putStatus(a, { runtimeId: '2024.13' }),
      await putStatus(a, { runtimeId: '2019.01' }),
      await putStatus(a, { runtimeId: '2027.04' }),
      (await getCheck(a)).runtimeId,
    ],
    clean: [400, 400, 400, 400, '2025.04'],
    broken: [200, 200, 400, 400, '2024.13'],
  },
  'ind7-cu-rollback-to-seed': {
    probe: async (a) => [
      await putStatus(a, { name: 'first rename' }),
      await putStatus(a, { name: 'refused rename', groupOrder: -1 }),
      (await getCheck(a)).name,
      await putStatus(a, { locations: ['mars-1'] }),
      (await getCheck(a)).name,
    ],
    clean: [200, 400, 'first rename', 400, 'first rename'],
    broken: [200, 400, SEEDED_API_CHECK.name, 400, SEEDED_API_CHECK.name],
  },
  'ind7-cu-cross-account-id': {
    probe: async (a) => {
      const read = await call(a, { url: `/v1/checks/${SEEDED_API_CHECK_ID}`, headers: { ...AUTH2 } });
      const write = await call(a, {
        method: 'PUT',
        url: `/v1/checks/${SEEDED_API_CHECK_ID}`,
        headers: { ...AUTH2 },
        payload: { name: 'from the second account' },
      });
      const unknown = await call(a, { url: `/v1/checks/${UNKNOWN_CHECK}`, headers: { ...AUTH2 } });
      return [read.status, write.status, unknown.status, (await getCheck(a)).name];
    },
    clean: [404, 404, 404, SEEDED_API_CHECK.name],
    broken: [200, 200, 404, 'from the second account'],
  },
  // FO
  'ind7-fo-zero-falsy': {
    // The API check is stored at frequency 10, so offset 15 passes as if for frequency 10; the browser check likewise.
    probe: async (a) => [
      await putStatus(a, { frequency: 0, frequencyOffset: 15 }),
      await putStatus(a, { frequency: 0, frequencyOffset: 10 }, SEEDED_BROWSER_CHECK_ID),
      await putStatus(a, { frequency: 0, frequencyOffset: 20 }),
      await putStatus(a, { frequency: 0, frequencyOffset: 25 }),
    ],
    clean: [400, 400, 200, 400],
    broken: [200, 200, 200, 400],
  },
  'ind7-fo-browser-range-unchecked': {
    probe: async (a) => [
      await putStatus(a, { frequency: 10, frequencyOffset: 101 }, SEEDED_BROWSER_CHECK_ID),
      await putStatus(a, { frequency: 120, frequencyOffset: 3 }, SEEDED_BROWSER_CHECK_ID),
      await putStatus(a, { frequency: 0, frequencyOffset: 10 }, SEEDED_BROWSER_CHECK_ID),
      await putStatus(a, { frequency: 10, frequencyOffset: 101 }),
      await putStatus(a, { frequency: 120, frequencyOffset: 2 }, SEEDED_BROWSER_CHECK_ID),
    ],
    clean: [400, 400, 400, 400, 200],
    broken: [200, 200, 400, 400, 200],
  },
  // AG
  'ind7-agent-liveness-before-first-heartbeat': 'agent',
  'ind7-agent-health-legacy-port': 'agent',
};

testGeneration(7, INDEPENDENT_FAULTS_7, MEASURED, CASES, [
  // The invalid document is the fault itself, and the cache miss answers an ordinary first read 404.
  'ind7-spec-nullable-type-array',
  'ind7-rt-cache-miss-404',
]);

// ---- agent faults: the agent as a child process on a port of the system's choice ------------------

test.describe.configure({ mode: 'parallel' });

const ROOT = join(__dirname, '..', '..');

/** Starts the agent (AGENT_HEALTH_PORT=0 unless `env` says otherwise); resolves once it prints its port. */
function startAgent(faults: string[], env: Record<string, string> = {}): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'reference/agent/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, AGENT_HEALTH_PORT: '0', MOCK_FAULT: faults.join(','), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`agent did not start: ${out}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ port: Number(m[1]), child });
      }
    });
    child.on('exit', (code) => reject(new Error(`agent exited (${code}): ${out}`)));
  });
}

async function withAgent<T>(faults: string[], use: (get: (path: string) => Promise<number>) => Promise<T>): Promise<T> {
  const { port, child } = await startAgent(faults);
  try {
    return await use(async (path) => (await fetch(`http://127.0.0.1:${port}${path}`)).status);
  } finally {
    child.kill('SIGINT');
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('independent agent fault ind7-agent-liveness-before-first-heartbeat: liveness 503 for the first 2 s after start', async () => {
  const probe = (get: (path: string) => Promise<number>) => async () => {
    const early = [await get('/-/liveness'), await get('/-/readiness'), await get('/health')];
    await sleep(2300);
    return [early, await get('/-/liveness')];
  };
  expect(await withAgent([], (get) => probe(get)())).toEqual([[200, 200, 200], 200]);
  expect(await withAgent(['ind7-agent-liveness-before-first-heartbeat'], (get) => probe(get)())).toEqual([[503, 200, 200], 200]);
});

test('independent agent fault ind7-agent-health-legacy-port: /health 404 on the port AGENT_HEALTH_PORT sets', async () => {
  const probe = async (get: (path: string) => Promise<number>) => [await get('/health'), await get('/-/readiness'), await get('/-/liveness')];
  expect(await withAgent([], probe)).toEqual([200, 200, 200]);
  expect(await withAgent(['ind7-agent-health-legacy-port'], probe)).toEqual([404, 200, 200]);
});
