// errbody:<place>:<status|any>:<mutation>: the error responses of that route and status change, in the
// way the mutation says, and no other response does. Every error a route produces is probed: auth
// failures, bodies that fail the schema or are no JSON, wrong media types, too large, unknown ids, 429.
import { expect, test } from '@playwright/test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { ERROR_MUTATIONS, type ErrorMutation } from '../faults/catalogue/fault-kinds';
import { AUTH, DEMO_ACCOUNT_ID, SECOND_ACCOUNT_ID, SEEDED_API_CHECK_ID } from './reference-testing';
import { service } from './reference-service';

interface Probe {
  place: string;
  status: number;
  request: InjectOptions;
}
const CHECK = `/v1/checks/${SEEDED_API_CHECK_ID}`;
const json = { ...AUTH, 'content-type': 'application/json' };
const noKey = { 'x-service-account': DEMO_ACCOUNT_ID };

const PROBES: Probe[] = [
  { place: 'runtime', status: 401, request: { url: '/v1/runtimes/2025.04', headers: { ...noKey, authorization: 'Bearer mon_wrong' } } },
  { place: 'runtime', status: 400, request: { url: '/v1/runtimes/2025.04', headers: { ...AUTH, 'x-service-account': 'acme' } } },
  { place: 'runtime', status: 403, request: { url: '/v1/runtimes/2025.04', headers: { ...AUTH, 'x-service-account': SECOND_ACCOUNT_ID } } },
  { place: 'runtime', status: 404, request: { url: '/v1/runtimes/2024.9', headers: { ...AUTH } } },
  { place: 'check-read', status: 401, request: { url: CHECK, headers: { ...noKey } } },
  { place: 'check-read', status: 404, request: { url: '/v1/checks/00000000-0000-4000-8000-000000000000', headers: { ...AUTH } } },
  { place: 'check-update', status: 401, request: { method: 'PUT', url: CHECK, headers: { ...noKey, 'content-type': 'application/json' }, payload: '{}' } },
  { place: 'check-update', status: 400, request: { method: 'PUT', url: CHECK, headers: json, payload: '{"groupOrder": -1}' } },
  { place: 'check-update', status: 400, request: { method: 'PUT', url: CHECK, headers: json, payload: '{"name": ' } },
  { place: 'check-update', status: 400, request: { method: 'PUT', url: CHECK, headers: json, payload: '' } },
  { place: 'check-update', status: 415, request: { method: 'PUT', url: CHECK, headers: { ...AUTH, 'content-type': 'text/plain' }, payload: '{}' } },
  { place: 'check-update', status: 413, request: { method: 'PUT', url: CHECK, headers: json, payload: JSON.stringify({ name: 'x'.repeat(1_100_000) }) } },
  { place: 'check-update', status: 404, request: { method: 'PUT', url: '/v1/checks/nope', headers: json, payload: '{}' } },
  { place: 'none', status: 404, request: { url: '/v1/nothing', headers: { ...AUTH } } },
  { place: 'none', status: 401, request: { url: '/v1/runtimes', headers: {} } },
];

interface Seen {
  status: number;
  type: string;
  text: string;
}
const see = async (app: FastifyInstance, request: InjectOptions): Promise<Seen> => {
  const r = await app.inject(request);
  return { status: r.statusCode, type: String(r.headers['content-type']), text: r.body };
};

async function observe(faults: string[]): Promise<Seen[]> {
  const app = await service(faults);
  try {
    const out: Seen[] = [];
    for (const p of PROBES) out.push(await see(app, p.request));
    return out;
  } finally {
    await app.close();
  }
}

/** One 429 per place: a limit of 2 per key, a key of its own per place, the third request refused. */
async function observe429(faults: string[]): Promise<Record<string, Seen>> {
  const app = await service(faults, { rateLimitMax: 2 });
  const out: Record<string, Seen> = {};
  try {
    for (const [place, request] of [
      ['runtime', PROBES[0].request],
      ['check-read', PROBES[4].request],
      ['check-update', PROBES[7].request],
    ] as const) {
      const headers = { ...request.headers, authorization: `Bearer ${place}-key` };
      for (let i = 0; i < 2; i++) await app.inject({ ...request, headers });
      out[place] = await see(app, { ...request, headers });
    }
  } finally {
    await app.close();
  }
  return out;
}

let clean: Seen[];
test.beforeAll(async () => {
  clean = await observe([]);
});

test('errbody: the clean service answers every probe with its status and the JSON error body', () => {
  PROBES.forEach((p, i) => {
    expect(clean[i].status, `${p.place} ${p.status}`).toBe(p.status);
    expect(clean[i].type).toMatch(/^application\/json/);
    expect(JSON.parse(clean[i].text)).toEqual({ statusCode: p.status, error: expect.any(String), message: expect.any(String) });
  });
});

/** What each mutation does to a JSON error body (the body the clean service sent for the same probe). */
const EXPECT: Record<ErrorMutation, (seen: Seen, cleanBody: Record<string, unknown>, status: number) => void> = {
  'string-status': (s, _c, status) => expect(JSON.parse(s.text).statusCode).toBe(String(status)),
  wording: (s, c) => {
    const e = JSON.parse(s.text).error;
    expect(e).not.toBe(c.error);
    expect(String(e).toLowerCase()).toBe(String(c.error).toLowerCase());
  },
  'text-type': (s, c) => {
    expect(s.type).toMatch(/^text\/plain/);
    expect(JSON.parse(s.text)).toEqual(c);
  },
  'status-mismatch': (s, _c, status) => {
    const code = JSON.parse(s.text).statusCode;
    expect(typeof code).toBe('number');
    expect(code).not.toBe(status);
  },
  'not-json': (s) => {
    expect(s.type).toMatch(/^text\/plain/);
    expect(() => JSON.parse(s.text)).toThrow();
  },
  html: (s, _c, status) => {
    expect(s.type).toMatch(/^text\/html/);
    expect(s.text).toContain(`<h1>${status}</h1>`);
  },
  'no-error': (s, c) => {
    const { error: _error, ...rest } = c;
    expect(JSON.parse(s.text)).toEqual(rest);
  },
  'no-status': (s, c) => {
    const { statusCode: _statusCode, ...rest } = c;
    expect(JSON.parse(s.text)).toEqual(rest);
  },
  'echo-key': (s) => expect(s.text).toMatch(/Bearer [\w-]+/),
  'message-number': (s, _c, status) => expect(JSON.parse(s.text).message).toBe(status),
  'attributes-string': (s, c) => expect(JSON.parse(s.text)).toEqual({ ...c, attributes: JSON.stringify(c.attributes) }),
};

for (const mutation of ERROR_MUTATIONS.filter((m) => m !== 'attributes-string')) {
  test(`errbody:runtime:404:${mutation} bends the runtime 404 only`, async () => {
    const broken = await observe([`errbody:runtime:404:${mutation}`]);
    PROBES.forEach((p, i) => {
      if (p.place === 'runtime' && p.status === 404) EXPECT[mutation](broken[i], JSON.parse(clean[i].text), p.status);
      else expect(broken[i], `${p.place} ${p.status}`).toEqual(clean[i]);
    });
  });
}

for (const place of ['runtime', 'check-read', 'check-update'] as const) {
  test(`errbody:${place}:any:<mutation> bends every error of ${place}, and only those`, async () => {
    for (const mutation of ['wording', 'text-type', 'no-status'] as const) {
      const broken = await observe([`errbody:${place}:any:${mutation}`]);
      PROBES.forEach((p, i) => {
        if (p.place === place) EXPECT[mutation](broken[i], JSON.parse(clean[i].text), p.status);
        else expect(broken[i], `${mutation}: ${p.place} ${p.status}`).toEqual(clean[i]);
      });
    }
  });
}

test('errbody:any:<status>:<mutation> bends that status on every route, the unnamed ones too', async () => {
  for (const status of [400, 401, 404]) {
    const broken = await observe([`errbody:any:${status}:string-status`]);
    PROBES.forEach((p, i) => {
      if (p.status === status) EXPECT['string-status'](broken[i], {}, status);
      else expect(broken[i], `${p.place} ${p.status}`).toEqual(clean[i]);
    });
  }
});

test('errbody: echo-key quotes the Authorization value that was sent, on a 401 with a wrong key', async () => {
  const broken = await observe(['errbody:runtime:401:echo-key']);
  expect(broken[0].text).toContain('Bearer mon_wrong');
  expect(clean[0].text).not.toContain('mon_wrong');
});

test('errbody on 429: each mutation bends the 429 of its place only', async () => {
  const clean429 = await observe429([]);
  for (const s of Object.values(clean429)) {
    expect(s.status).toBe(429);
    expect(JSON.parse(s.text)).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.any(String),
      attributes: { limit: 2, windowSeconds: 60 },
    });
  }
  for (const mutation of ERROR_MUTATIONS) {
    const broken = await observe429([`errbody:runtime:429:${mutation}`]);
    EXPECT[mutation](broken.runtime, JSON.parse(clean429.runtime.text), 429);
    expect(broken['check-read'], mutation).toEqual(clean429['check-read']);
    expect(broken['check-update'], mutation).toEqual(clean429['check-update']);
  }
});

test("errbody:spec: the spec route's own errors (spec-missing 404, auth-strict 401)", async () => {
  const app = await service(['spec-missing', 'errbody:spec:404:wording']);
  const r = await app.inject({ url: '/openapi.json' });
  expect([r.statusCode, r.json().error]).toEqual([404, 'Not found']);
  expect((await app.inject({ url: '/v1/runtimes/nope', headers: { ...AUTH } })).json().error).toBe('Not Found');
  await app.close();
  const strict = await service(['auth-strict:spec', 'errbody:spec:401:no-error']);
  expect((await strict.inject({ url: '/openapi.json' })).json()).toEqual({ statusCode: 401, message: expect.any(String) });
  await strict.close();
});
