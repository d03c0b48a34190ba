// Helpers for the unit tests that ask the reference service itself (the fault probe, its robustness,
// its settings): the demo credentials and an inject() shorthand. Not used by the service itself.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { API_KEYS, DEMO_ACCOUNT_ID, SECOND_ACCOUNT_ID } from '../../reference/service/accounts';
import { buildService, type ServiceOptions } from '../../reference/service/app';
import { SEEDED_API_CHECK_ID, SEEDED_BROWSER_CHECK_ID, seedChecks } from '../../reference/service/checks/store';
import { outsideFaults } from '../faults/outside/plugin';

const [DEMO_KEY, SECOND_KEY] = [...API_KEYS.keys()];
export { DEMO_KEY };
export { DEMO_ACCOUNT_ID, SECOND_ACCOUNT_ID, SEEDED_API_CHECK_ID, SEEDED_BROWSER_CHECK_ID };
/** The seeded API check as the store starts: what a test reads back where nothing changed it. */
export const SEEDED_API_CHECK = seedChecks().find((c) => c.id === SEEDED_API_CHECK_ID)!;
/** A well-formed GUID of no account. */
export const OTHER_GUID = '3d2c1b0a-9f8e-4d7c-a6b5-c4d3e2f1a0b9';
export const AUTH = { authorization: `Bearer ${DEMO_KEY}`, 'x-service-account': DEMO_ACCOUNT_ID } as const;
export const AUTH2 = { authorization: `Bearer ${SECOND_KEY}`, 'x-service-account': SECOND_ACCOUNT_ID } as const;

export interface FakeClock {
  now: number;
  tick(ms: number): void;
  read: () => number;
}
export function fakeClock(start = 1_000_000): FakeClock {
  const c: FakeClock = {
    now: start,
    tick: (ms) => {
      c.now += ms;
    },
    read: () => c.now,
  };
  return c;
}

/** The service with these MOCK_FAULT items, those applied from outside it too (as the self-test starts it). */
export const service = (faults: string[] = [], extra: ServiceOptions = {}): Promise<FastifyInstance> =>
  buildService({ ...extra, plugins: [outsideFaults(faults), ...(extra.plugins ?? [])] });

export interface Answer {
  status: number;
  type: string;
  headers: Record<string, unknown>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads whatever the service answered
  body: any;
  text: string;
}

/** inject() with the demo credentials unless `headers` replaces them; the body is parsed when it is JSON. */
export async function call(app: FastifyInstance, opts: InjectOptions & { url: string }): Promise<Answer> {
  const res = await app.inject({ method: 'GET', ...opts, headers: opts.headers ?? { ...AUTH } });
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, type: String(res.headers['content-type'] ?? ''), headers: res.headers, body, text: res.body };
}
