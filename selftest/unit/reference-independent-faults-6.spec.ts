// The sixth batch of independent faults (ind6-*, reference/independent-faults.ts INDEPENDENT_FAULTS_6):
// for each, one probe and what it observes on a clean service and with the fault injected, so the bug
// is shown to be there and the clean behaviour to be the documented one. Agent faults run the agent.
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect, test } from '@playwright/test';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { afterSigterm, type Case, testGeneration, UNKNOWN_CHECK } from './reference-fault-harness';
import { INDEPENDENT_FAULTS_6 } from '../../reference/independent-faults';
import { INDEPENDENT_FAULTS_6 as MEASURED } from '../faults/independent';
import {
  AUTH,
  call,
  DEMO_ACCOUNT_ID,
  DEMO_KEY,
  getCheck,
  put,
  SECOND_ACCOUNT_ID,
  SEEDED_API_CHECK_ID,
  type FakeClock,
  SEEDED_API_CHECK,
} from '../../reference/testing';

const JSON_TYPE = 'application/json; charset=utf-8';
const spec = async (app: FastifyInstance) => (await call(app, { url: '/openapi.json', headers: {} })).body;
const rt = (app: FastifyInstance, id: string) => call(app, { url: `/v1/runtimes/${id}` });
const status = async (app: FastifyInstance, url: string, headers: Record<string, string>) => (await call(app, { url, headers })).status;
const putStatus = async (app: FastifyInstance, body: unknown, id?: string, query?: string) => (await put(app, body, id, query)).status;
/** Sends n requests to each url in turn, the clock moving `tickMs` before each; returns the statuses. */
async function burst(app: FastifyInstance, clock: FakeClock, n: number, urls: string | string[], tickMs = 0) {
  const list = typeof urls === 'string' ? [urls] : urls;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    clock.tick(tickMs);
    out.push((await app.inject({ url: list[i % list.length], headers: { ...AUTH } })).statusCode);
  }
  return out;
}
const served = (statuses: number[]) => statuses.filter((s) => s === 200).length;

/** Whether each runtime's 200 body matches the Runtime schema of the served spec (formats checked). */
async function runtimeBodiesMatchSpec(app: FastifyInstance, ids: string[]) {
  const doc = (await SwaggerParser.dereference(await spec(app))) as unknown as { components: { schemas: Record<string, object> } };
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(doc.components.schemas.Runtime);
  return Promise.all(ids.map(async (id) => validate((await rt(app, id)).body)));
}

const CASES: Record<keyof typeof INDEPENDENT_FAULTS_6, Case | 'agent'> = {
  // SPEC
  'ind6-spec-429-apierror': {
    probe: async (a) => (await spec(a)).paths['/v1/runtimes/{id}'].get.responses['429'].content['application/json'].schema.$ref,
    clean: '#/components/schemas/TooManyRequestsError',
    broken: '#/components/schemas/ApiError',
  },
  'ind6-spec-id-number': {
    probe: async (a) => (await spec(a)).paths['/v1/runtimes/{id}'].get.parameters.find((p: { in: string }) => p.in === 'path').schema.type,
    clean: 'string',
    broken: 'number',
  },
  'ind6-spec-eol-format-date': {
    probe: async (a) => runtimeBodiesMatchSpec(a, ['2024.02', '2025.04']),
    clean: [true, true],
    broken: [false, true],
  },
  // AUTH
  'ind6-auth-key-query-param': {
    probe: async (a) => {
      const account = { 'x-service-account': DEMO_ACCOUNT_ID };
      return [
        await status(a, `/v1/runtimes/2025.04?api_key=${DEMO_KEY}`, account),
        await status(a, `/v1/runtimes/2025.04?access_token=${DEMO_KEY}`, account),
        await status(a, '/v1/runtimes/2025.04?api_key=mon_nobody', account),
      ];
    },
    clean: [401, 401, 401],
    broken: [200, 200, 401],
  },
  'ind6-auth-guid-unanchored': {
    probe: async (a) =>
      Promise.all(
        [`{${DEMO_ACCOUNT_ID}}`, `${DEMO_ACCOUNT_ID}x`, `urn:uuid:${DEMO_ACCOUNT_ID}`, 'not-a-guid'].map((v) =>
          status(a, '/v1/runtimes/2025.04', { ...AUTH, 'x-service-account': v }),
        ),
      ),
    clean: [400, 400, 400, 400],
    broken: [200, 200, 200, 400],
  },
  'ind6-auth-key-case-insensitive': {
    probe: async (a) => [
      await status(a, '/v1/runtimes/2025.04', { ...AUTH, authorization: `Bearer ${DEMO_KEY.toUpperCase()}` }),
      await status(a, '/v1/runtimes/2025.04', { ...AUTH, authorization: `Bearer ${DEMO_KEY}0` }),
    ],
    clean: [401, 401],
    broken: [200, 401],
  },
  'ind6-auth-403-after-write': {
    probe: async (a) => {
      const r = await call(a, {
        method: 'PUT',
        url: `/v1/checks/${SEEDED_API_CHECK_ID}`,
        headers: { ...AUTH, 'x-service-account': SECOND_ACCOUNT_ID },
        payload: { name: 'written anyway' },
      });
      return [r.status, r.body.statusCode, (await getCheck(a)).name];
    },
    clean: [403, 403, SEEDED_API_CHECK.name],
    broken: [403, 403, 'written anyway'],
  },
  // RT
  'ind6-rt-id-numeric-parse': {
    probe: async (a) => {
      const r = await rt(a, '2024.9');
      return [r.status, r.body.name, (await rt(a, '2024.13')).status, (await rt(a, '2024.09')).status];
    },
    clean: [404, undefined, 404, 200],
    broken: [200, '2024.09', 404, 200],
  },
  'ind6-rt-eol-leap': {
    probe: async (a) => [(await rt(a, '2022.10')).body.runtimeEndOfLife, (await rt(a, '2023.02')).body.runtimeEndOfLife],
    clean: ['02/28/2026', '06/30/2026'],
    broken: ['02/29/2026', '06/30/2026'],
  },
  'ind6-rt-description-null': {
    probe: async (a) => [typeof (await rt(a, '2026.04')).body.description, (await rt(a, '2026.04')).body.description === null],
    clean: ['string', false],
    broken: ['object', true],
  },
  // ERR
  'ind6-err-415-text': {
    probe: async (a) => {
      const r = await call(a, {
        method: 'PUT',
        url: `/v1/checks/${SEEDED_API_CHECK_ID}`,
        headers: { ...AUTH, 'content-type': 'text/plain' },
        payload: 'name=plain',
      });
      return [r.status, r.type, r.body?.statusCode];
    },
    clean: [415, JSON_TYPE, 415],
    broken: [415, 'text/plain; charset=utf-8', undefined],
  },
  'ind6-err-413-status-400': {
    probe: async (a) => {
      const r = await call(a, {
        method: 'PUT',
        url: `/v1/checks/${SEEDED_API_CHECK_ID}`,
        headers: { ...AUTH, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'big', tags: ['x'.repeat(1024 * 1024)] }),
      });
      return [r.status, r.type, r.body.statusCode];
    },
    clean: [413, JSON_TYPE, 413],
    broken: [413, JSON_TYPE, 400],
  },
  'ind6-err-404-message-null': {
    probe: async (a) => [(await rt(a, 'nope')).body, (await call(a, { url: `/v1/checks/${UNKNOWN_CHECK}` })).body.message],
    clean: [{ statusCode: 404, error: 'Not Found', message: 'Runtime not found' }, 'Check not found'],
    broken: [{ statusCode: 404, error: 'Not Found', message: null }, 'Check not found'],
  },
  // RL
  'ind6-rl-429-extends-window': {
    // Hits at +10 s, +20 s, +30 s (the 429, "retry in 40 s"); 40 s later the window of the first hit has ended.
    probe: async (a, clock) => {
      const statuses = await burst(a, clock, 2, '/v1/runtimes/2025.04', 10_000);
      clock.tick(10_000);
      const refused = await rt(a, '2025.04');
      clock.tick(40_000);
      return [statuses, refused.status, refused.headers['retry-after'], (await rt(a, '2025.04')).status];
    },
    options: { rateLimitMax: 2, rateLimitWindowS: 60 },
    clean: [[200, 200], 429, '40', 200],
    broken: [[200, 200], 429, '40', 429],
  },
  'ind6-rl-bucket-per-url': {
    probe: async (a, clock) => burst(a, clock, 6, ['/v1/runtimes/2025.04', '/v1/runtimes/2024.09', '/v1/runtimes/2026.04']),
    options: { rateLimitMax: 3 },
    clean: [200, 200, 200, 429, 429, 429],
    broken: [200, 200, 200, 200, 200, 200],
  },
  'ind6-rl-custom-prefix': {
    probe: async (a, clock) => served(await burst(a, clock, 25, '/v1/runtimes/2025.04')),
    clean: 25,
    broken: 20,
  },
  // CU
  'ind6-cu-put-upserts': {
    probe: async (a) => [await putStatus(a, { name: 'created by PUT' }, UNKNOWN_CHECK), (await call(a, { url: `/v1/checks/${UNKNOWN_CHECK}` })).status],
    clean: [404, 404],
    broken: [200, 200],
  },
  'ind6-cu-query-checked-after-write': {
    probe: async (a) => [
      await putStatus(a, { name: 'query was bad' }, SEEDED_API_CHECK_ID, '?autoAssignAlerts=maybe'),
      (await getCheck(a)).name,
      await putStatus(a, { name: 'query is fine' }, SEEDED_API_CHECK_ID, '?autoAssignAlerts=false'),
    ],
    clean: [400, SEEDED_API_CHECK.name, 200],
    broken: [400, 'query was bad', 200],
  },
  'ind6-cu-location-case': {
    probe: async (a) => [
      await putStatus(a, { locations: ['EU-WEST-1'] }),
      await putStatus(a, { locations: [' ap-south-1 '] }),
      await putStatus(a, { locations: ['mars-1'] }),
      (await getCheck(a)).locations,
    ],
    clean: [400, 400, 400, ['eu-central-1', 'us-east-1']],
    broken: [200, 200, 400, ['ap-south-1']],
  },
  'ind6-cu-removed-runtime-refused': {
    probe: async (a) => [
      await putStatus(a, { runtimeId: '2022.10' }),
      await putStatus(a, { runtimeId: '2023.02' }),
      await putStatus(a, { runtimeId: '2023.09' }),
      (await getCheck(a)).runtimeId,
    ],
    clean: [200, 200, 200, '2023.09'],
    broken: [400, 400, 200, '2023.09'],
  },
  // FO
  'ind6-fo-sixty-high-rule': {
    probe: async (a) => [
      await putStatus(a, { frequency: 60, frequencyOffset: 600 }),
      await putStatus(a, { frequency: 60, frequencyOffset: 2 }),
      await putStatus(a, { frequency: 60, frequencyOffset: 1 }),
      await putStatus(a, { frequency: 60, frequencyOffset: 601 }),
    ],
    clean: [200, 200, 200, 400],
    broken: [400, 400, 200, 400],
  },
  'ind6-fo-zero-range': {
    probe: async (a) => Promise.all([15, 25, 20, 31, 5].map((o) => putStatus(a, { frequency: 0, frequencyOffset: o }))),
    clean: [400, 400, 200, 400, 400],
    broken: [200, 200, 200, 400, 400],
  },
  'ind6-fo-old-frequency': {
    // Stored frequency 10 (offsets 1..100): frequency 2 allows 1..20, frequency 30 allows 1..300.
    probe: async (a) => [await putStatus(a, { frequency: 2, frequencyOffset: 100 }), await putStatus(a, { frequency: 30, frequencyOffset: 300 })],
    clean: [400, 200],
    broken: [200, 400],
  },
  // AG
  'ind6-agent-ready-again-stopping': 'agent',
  'ind6-agent-close-listener-first': 'agent',
};

testGeneration(6, INDEPENDENT_FAULTS_6, MEASURED, CASES);

// ---- agent faults: the agent as a child process on a free port -------------------------------------

test.describe.configure({ mode: 'parallel' });

test('independent agent fault ind6-agent-ready-again-stopping: readiness 200 again at the end of the drain', async () => {
  const probes: Array<[number, string]> = [
    [200, '/-/readiness'],
    [1300, '/-/readiness'],
  ];
  expect(await afterSigterm([], probes)).toEqual([503, 503]);
  expect(await afterSigterm(['ind6-agent-ready-again-stopping'], probes)).toEqual([503, 200]);
});

test('independent agent fault ind6-agent-close-listener-first: probes refused during the drain', async () => {
  const probes: Array<[number, string]> = [
    [200, '/-/readiness'],
    [300, '/-/liveness'],
  ];
  expect(await afterSigterm([], probes)).toEqual([503, 200]);
  expect(await afterSigterm(['ind6-agent-close-listener-first'], probes)).toEqual(['refused', 'refused']);
});
