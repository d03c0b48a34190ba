// The request lens's faults (selftest/faults/outside/request.ts): each bends the one part of a
// request it names, and the service answers that request as it should without it.
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { AUTH, call, getCheck, SEEDED_API_CHECK, SEEDED_API_CHECK_ID } from '../../reference/testing';
import { service } from './reference-service';

const CHECK = `/v1/checks/${SEEDED_API_CHECK_ID}`;
const update = (type: string, payload: string) => ({ method: 'PUT' as const, url: CHECK, headers: { ...AUTH, 'content-type': type }, payload });

const CASES: Record<string, { probe: (app: FastifyInstance) => Promise<unknown>; clean: unknown; broken: unknown }> = {
  'req-unknown-route-html': {
    probe: async (app) => {
      const a = await call(app, { url: '/v1/contract-suite-no-such-route' });
      return [a.status, a.type.split(';')[0]];
    },
    clean: [404, 'application/json'],
    broken: [404, 'text/html'],
  },
  'req-delete-runtime-200': {
    probe: async (app) => [
      (await call(app, { method: 'DELETE', url: '/v1/runtimes/2025.04' })).status,
      (await call(app, { method: 'DELETE', url: '/v1/runtimes/2025.04', headers: {} })).status,
    ],
    clean: [404, 404],
    broken: [200, 401],
  },
  'req-trailing-slash-500': {
    probe: async (app) => [(await call(app, { url: '/v1/runtimes/2025.04/' })).status, (await call(app, { url: '/v1/runtimes/2025.04' })).status],
    clean: [404, 200],
    broken: [500, 200],
  },
  'req-array-body-applied': {
    probe: async (app) => {
      const status = (await call(app, update('application/json', JSON.stringify([{ name: 'from an array' }])))).status;
      return [status, (await getCheck(app)).name];
    },
    clean: [400, SEEDED_API_CHECK.name],
    broken: [200, 'from an array'],
  },
  'req-json-charset-500': {
    probe: async (app) => [
      (await call(app, update('application/json; charset=utf-8', '{}'))).status,
      (await call(app, update('application/json', '{}'))).status,
    ],
    clean: [200, 200],
    broken: [500, 200],
  },
};

for (const [fault, c] of Object.entries(CASES)) {
  test(`request fault ${fault}`, async () => {
    const observe = async (faults: string[]) => {
      const app = await service(faults);
      try {
        return await c.probe(app);
      } finally {
        await app.close();
      }
    };
    expect(await observe([]), 'clean service').toEqual(c.clean);
    expect(await observe([fault]), `with ${fault}`).toEqual(c.broken);
  });
}
