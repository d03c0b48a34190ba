// Each service fault changes what a client observes: the same probe gives a different answer on a
// clean service and on one with the fault injected. (Agent faults: reference-agent.spec.ts.)
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { FAULTS, type FaultName } from '../../reference/faults';
import type { ServiceOptions } from '../../reference/service/app';
import {
  AUTH,
  AUTH2,
  call,
  DEMO_KEY,
  fakeClock,
  getCheck,
  put,
  SECOND_ACCOUNT_ID,
  SEEDED_API_CHECK_ID,
  SEEDED_BROWSER_CHECK_ID,
  type FakeClock,
} from '../../reference/testing';
import { service } from './reference-service';

type Probe = (app: FastifyInstance, clock: FakeClock) => Promise<unknown>;
const spec = async (app: FastifyInstance) => (await call(app, { url: '/openapi.json', headers: {} })).body;
const rt = async (app: FastifyInstance, id = '2025.04') => call(app, { url: `/v1/runtimes/${id}` });
const status = async (app: FastifyInstance, url: string, headers?: Record<string, string>) => (await call(app, { url, headers })).status;
const putStatus = async (app: FastifyInstance, body: unknown, id?: string) => (await put(app, body, id)).status;
/** How many of n requests were served before the first non-200. */
async function served(app: FastifyInstance, n: number, url = '/v1/runtimes/2025.04', headers: Record<string, string> = { ...AUTH }) {
  for (let i = 0; i < n; i++) if ((await app.inject({ url, headers })).statusCode !== 200) return i;
  return n;
}
const SMALL: ServiceOptions = { rateLimitMax: 2 };

const PROBES: Partial<Record<FaultName, [Probe, ServiceOptions?]>> = {
  'spec-missing': [(a) => status(a, '/openapi.json', {})],
  'spec-invalid': [
    async (a) =>
      SwaggerParser.validate(await spec(a)).then(
        () => 'valid',
        (e: Error) => e.name,
      ),
  ],
  'spec-unversioned': [async (a) => Object.keys((await spec(a)).paths)],
  'spec-bom': [async (a) => (await a.inject({ url: '/openapi.json' })).rawPayload.subarray(0, 3).toString('hex')],
  'spec-trailing-slash': [async (a) => Object.keys((await spec(a)).paths)],
  'spec-no-bearer': [async (a) => (await spec(a)).components.securitySchemes],
  'spec-runtime-no-404': [async (a) => Object.keys((await spec(a)).paths['/v1/runtimes/{id}'].get.responses)],
  'spec-not-deprecated': [async (a) => (await spec(a)).paths['/v1/checks/{id}'].put.deprecated],
  'spec-runtime-optional-node': [async (a) => (await spec(a)).components.schemas.Runtime.required],
  'spec-stage-enum': [async (a) => (await spec(a)).components.schemas.RuntimeStage.enum],
  'spec-stage-extra': [async (a) => (await spec(a)).components.schemas.RuntimeStage.enum],
  'spec-429-schema': [async (a) => (await spec(a)).components.schemas.TooManyRequestsError.properties.error.enum],
  'spec-404-problem-json': [async (a) => Object.keys((await spec(a)).paths['/v1/runtimes/{id}'].get.responses['404'].content)],
  'swagger-newer': [
    async (a) => {
      const o = await call(a, { url: '/openapi.json', headers: {} });
      const s = await call(a, { url: '/swagger.json', headers: {} });
      return [Object.keys(s.body.paths), Date.parse(String(s.headers['last-modified'])) > Date.parse(String(o.headers['last-modified']))];
    },
  ],
  'auth-no-key-accepted': [(a) => status(a, '/v1/runtimes/2025.04', { 'x-service-account': AUTH['x-service-account'] })],
  'auth-any-scheme': [(a) => status(a, '/v1/runtimes/2025.04', { ...AUTH, authorization: `Basic ${DEMO_KEY}` })],
  'auth-any-key': [(a) => status(a, '/v1/runtimes/2025.04', { ...AUTH, authorization: 'Bearer mon_nobody' })],
  'auth-wrong-account-header': [(a) => status(a, '/v1/runtimes/2025.04')],
  'auth-no-account-check': [(a) => status(a, '/v1/runtimes/2025.04', { authorization: AUTH.authorization })],
  'auth-account-not-guid': [(a) => status(a, '/v1/runtimes/2025.04', { ...AUTH, 'x-service-account': 'acme' })],
  'auth-other-account': [(a) => status(a, '/v1/runtimes/2025.04', { ...AUTH, 'x-service-account': SECOND_ACCOUNT_ID })],
  'auth-key-secret-part': [(a) => status(a, '/v1/runtimes/2025.04', { ...AUTH, authorization: AUTH.authorization.replace('mon_', 'non_') })],
  'auth-account-hex-only': [(a) => status(a, '/v1/runtimes/2025.04', { ...AUTH, 'x-service-account': AUTH['x-service-account'].replace(/-/g, '_') })],
  'auth-account-first-group': [
    (a) => status(a, '/v1/runtimes/2025.04', { ...AUTH, 'x-service-account': AUTH['x-service-account'].replace(/-.{4}-/, '-ffff-') }),
  ],
  'auth-echo-key': [
    async (a) => (await call(a, { url: '/v1/runtimes/2025.04', headers: { ...AUTH, authorization: 'Bearer mon_leak' } })).text.includes('mon_leak'),
  ],
  'rt-missing-version': [(a) => status(a, '/v1/runtimes/2022.10')],
  'rt-content-type-text': [async (a) => (await rt(a)).type],
  'rt-accept-strict': [async (a) => (await call(a, { url: '/v1/runtimes/2025.04', headers: { ...AUTH, accept: '*/*' } })).status],
  'rt-name-mismatch': [async (a) => (await rt(a, '2024.09')).body.name],
  'rt-concurrent-last-wins': [async (a) => (await Promise.all([rt(a, '2024.09'), rt(a, '2025.04')])).map((r) => r.body.name)],
  'rt-node-no-v': [async (a) => (await rt(a)).body.nodeJsVersion],
  'rt-multistep-string': [async (a) => typeof (await rt(a)).body.multiStepSupport],
  'rt-stage-lowercase': [async (a) => (await rt(a)).body.stage],
  'rt-eol-iso': [async (a) => (await rt(a, '2023.09')).body.runtimeEndOfLife],
  'rt-eol-invalid-date': [async (a) => (await rt(a, '2023.09')).body.runtimeEndOfLife],
  'rt-deps-empty': [async (a) => Object.keys((await rt(a)).body.dependencies).length],
  'rt-deps-number': [async (a) => Object.values((await rt(a)).body.dependencies).map((v) => typeof v)],
  'rt-description-number': [async (a) => typeof (await rt(a)).body.description],
  'rt-encoded-slash-500': [(a) => status(a, '/v1/runtimes/..%2F2025.04')],
  'rt-long-id-500': [(a) => status(a, `/v1/runtimes/${'9'.repeat(1500)}`)],
  'rt-prefix-match': [(a) => status(a, '/v1/runtimes/2024.0')],
  'err-404-string-status': [async (a) => (await rt(a, 'nope')).body.statusCode],
  'err-404-wording': [async (a) => (await rt(a, 'nope')).body.error],
  'err-text-content-type': [async (a) => (await rt(a, 'nope')).type],
  'err-status-mismatch': [async (a) => (await call(a, { url: '/v1/runtimes/2025.04', headers: {} })).body.statusCode],
  'rl-none': [(a) => served(a, 610)],
  'rl-500': [(a) => served(a, 610)],
  'rl-700': [(a) => served(a, 710)],
  'rl-429-body': [
    async (a) => {
      await served(a, 2);
      return (await rt(a)).body;
    },
    SMALL,
  ],
  'rl-503': [
    async (a) => {
      await served(a, 2);
      return (await rt(a)).status;
    },
    SMALL,
  ],
  'rl-never-reset': [
    async (a, clock) => {
      await served(a, 3);
      clock.tick(61_000);
      return (await rt(a)).status;
    },
    SMALL,
  ],
  'rl-per-ip': [
    async (a) => {
      await served(a, 2);
      return status(a, '/v1/runtimes/2025.04', { ...AUTH2 });
    },
    SMALL,
  ],
  'rl-custom-ignored': [(a) => served(a, 21, '/v1/runtimes')],
  'rl-custom-429-body': [
    async (a) => {
      await served(a, 21, '/v1/runtimes');
      return (await call(a, { url: '/v1/runtimes' })).body;
    },
  ],
  'rl-bad-headers': [async (a) => [(await rt(a)).headers['x-ratelimit-remaining'], (await rt(a)).headers['x-ratelimit-remaining']]],
  'fo-upper-off-by-one-low': [(a) => putStatus(a, { frequency: 10, frequencyOffset: 101 })],
  'fo-upper-off-by-one-high': [(a) => putStatus(a, { frequency: 120, frequencyOffset: 3 })],
  'cu-lost-update': [
    async (a) => {
      await Promise.all([putStatus(a, { name: 'renamed' }), putStatus(a, { tags: ['retagged'] })]);
      const check = await getCheck(a);
      return [check.name, check.tags];
    },
  ],
  'cu-content-type-exact': [
    async (a) =>
      (
        await a.inject({
          method: 'PUT',
          url: `/v1/checks/${SEEDED_API_CHECK_ID}`,
          headers: { ...AUTH, 'content-type': 'application/json; charset=utf-8' },
          payload: JSON.stringify({ name: 'x' }),
        })
      ).statusCode,
  ],
  'auth-login-redirect': [async (a) => (await call(a, { url: '/v1/runtimes/2025.04', headers: { accept: 'text/html' } })).status],
  'fo-key-order': [(a) => putStatus(a, { frequencyOffset: 3, frequency: 120 })],
  'fo-too-strict': [async (a) => [await putStatus(a, { frequency: 10, frequencyOffset: 100 }), await putStatus(a, { frequency: 120, frequencyOffset: 2 })]],
  'fo-zero-any': [(a) => putStatus(a, { frequency: 0, frequencyOffset: 5 })],
  'fo-zero-browser': [(a) => putStatus(a, { frequency: 0, frequencyOffset: 10 }, SEEDED_BROWSER_CHECK_ID)],
  'fo-offset-zero': [(a) => putStatus(a, { frequencyOffset: 0 })],
  'fo-fractional': [(a) => putStatus(a, { frequencyOffset: 1.5 })],
  'fo-string-offset': [(a) => putStatus(a, { frequencyOffset: '5' })],
  'fo-offset-number-unchanged': [async (a) => (await put(a, { frequency: 10, frequencyOffset: 1 }), await putStatus(a, { frequencyOffset: [1] }))],
  'fo-refused-draft-frequency': [
    async (a) => (
      await put(a, { frequency: 10, frequencyOffset: 1 }),
      await put(a, { frequency: 120, frequencyOffset: 50 }),
      await putStatus(a, { frequencyOffset: 50 })
    ),
  ],
  'cu-500': [(a) => putStatus(a, { locations: ['mars-1'] })],
  'cu-astral-dropped': [async (a) => (await put(a, { name: 'probe 😀' }), (await getCheck(a)).name)],
  'cu-runtime-pinned-newest': [async (a) => (await put(a, { runtimeId: '2026.04' }), await putStatus(a, { runtimeId: '2025.04' }))],
  'cu-partial-apply': [
    async (a) => {
      await put(a, { name: 'sticky', groupOrder: 1.5 });
      return (await getCheck(a)).name;
    },
  ],
  'cu-refused-draft-kept': [
    async (a) => {
      await put(a, { name: 'refused', frequencyOffset: 0 });
      await put(a, { activated: false });
      return (await getCheck(a)).name;
    },
  ],
  'cu-refused-saved-after-read': [
    async (a) => {
      await put(a, { name: 'refused', frequencyOffset: 0 });
      await getCheck(a);
      // The write follows the answer: a moment for it.
      await new Promise((r) => setTimeout(r, 100));
      return (await getCheck(a)).name;
    },
  ],
  'cu-no-op-refused': [
    async (a) => {
      const { name } = await getCheck(a);
      return putStatus(a, { name });
    },
  ],
  'cu-not-persisted': [
    async (a) => {
      await put(a, { name: 'stored' });
      return (await getCheck(a)).name;
    },
  ],
  'cu-null-ignored': [
    async (a) => {
      await put(a, { description: 'set' });
      await put(a, { description: null });
      return (await getCheck(a)).description;
    },
  ],
  'cu-description-501': [(a) => putStatus(a, { description: 'd'.repeat(501) })],
  'cu-negative-grouporder': [(a) => putStatus(a, { groupOrder: -1 })],
  'cu-unknown-location': [(a) => putStatus(a, { locations: ['mars-1'] })],
  'cu-empty-locations': [(a) => putStatus(a, { locations: [] })],
  'cu-unknown-runtime': [(a) => putStatus(a, { runtimeId: '2021.01' })],
  'cu-unknown-checktype': [(a) => putStatus(a, { checkType: 'SMTP' })],
  'err-two-problems-404-body': [async (a) => (await put(a, { frequencyOffset: 0 }, '00000000-0000-4000-8000-000000000000')).body],
  'cu-unknown-id-200': [(a) => putStatus(a, { name: 'x' }, '00000000-0000-4000-8000-000000000000')],
};

test('faults: every service fault has a probe here', () => {
  // ind-* and ind6-* faults (agent ones too) have their own probes: reference-independent-faults(-6).spec.ts; req-* faults, reference-fault-request.spec.ts.
  const service = Object.keys(FAULTS).filter((f) => !f.startsWith('agent-') && !/^(ind\d*|req)-/.test(f));
  expect(service.filter((f) => !(f in PROBES))).toEqual([]);
});

for (const [fault, [probe, options]] of Object.entries(PROBES) as Array<[FaultName, [Probe, ServiceOptions?]]>) {
  test(`fault ${fault} changes behaviour`, async () => {
    const observe = async (faults: FaultName[]) => {
      const clock = fakeClock();
      const app = await service(faults, { ...options, clock: clock.read });
      try {
        return JSON.stringify(await probe(app, clock));
      } finally {
        await app.close();
      }
    };
    const clean = await observe([]);
    const broken = await observe([fault]);
    expect(broken, `clean: ${clean}`).not.toBe(clean);
  });
}
