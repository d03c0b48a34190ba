// auth-skip and auth-strict: each row changes exactly the answers of its rule on its place. Every
// probe (each place x each way of breaking a rule, plus the valid request) is asked with and without
// the fault; the answers that differ must be exactly the row's cells.
import { expect, test } from '@playwright/test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { AUTH_RULES, type AuthRule } from '../faults/catalogue/fault-kinds';
import { AUTH, DEMO_ACCOUNT_ID, DEMO_KEY, SECOND_ACCOUNT_ID, SEEDED_API_CHECK_ID, service } from './reference-testing';

type Rule = AuthRule | 'valid';
const PLACES = ['runtime', 'check-read', 'check-update', 'list'] as const;
type Where = (typeof PLACES)[number];

const REQUEST: Record<Where, Pick<InjectOptions, 'method' | 'url' | 'payload'>> = {
  runtime: { url: '/v1/runtimes/2025.04' },
  'check-read': { url: `/v1/checks/${SEEDED_API_CHECK_ID}` },
  'check-update': { method: 'PUT', url: `/v1/checks/${SEEDED_API_CHECK_ID}`, payload: { name: 'Renamed' } },
  list: { url: '/v1/runtimes' }, // a route without a role: only `any` reaches it
};

const acct = { 'x-service-account': DEMO_ACCOUNT_ID };
const bearer = { authorization: `Bearer ${DEMO_KEY}` };
/** Every way of breaking each rule that the suite may try. */
const BREAKS: Record<Rule, Array<Record<string, string>>> = {
  valid: [{ ...AUTH }],
  key: [{ ...acct }, { authorization: '', ...acct }, { ...acct, 'x-api-key': DEMO_KEY }],
  scheme: [
    { authorization: `Basic ${DEMO_KEY}`, ...acct },
    { authorization: `Basic ${Buffer.from(`${DEMO_KEY}:`).toString('base64')}`, ...acct },
    { authorization: `Token ${DEMO_KEY}`, ...acct },
    { authorization: DEMO_KEY, ...acct },
  ],
  'unknown-key': [{ authorization: 'Bearer mon_demo_00000000000000000000000000000000', ...acct }],
  'account-missing': [{ ...bearer }],
  'account-empty': [
    { ...bearer, 'x-service-account': '' },
    { ...bearer, 'x-service-account': '   ' },
  ],
  'account-malformed': [
    { ...bearer, 'x-service-account': 'acme' },
    { ...bearer, 'x-service-account': `${DEMO_ACCOUNT_ID}x` },
  ],
  'account-other': [
    { ...bearer, 'x-service-account': SECOND_ACCOUNT_ID },
    { ...bearer, 'x-service-account': '00000000-0000-4000-8000-000000000000' },
  ],
};

/** "place/rule#n" -> status, for every probe. */
async function answers(faults: string[]): Promise<Map<string, number>> {
  const app: FastifyInstance = await service(faults);
  const out = new Map<string, number>();
  try {
    for (const where of PLACES) {
      for (const [rule, variants] of Object.entries(BREAKS)) {
        for (const [n, headers] of variants.entries()) {
          out.set(`${where}/${rule}#${n}`, (await app.inject({ method: 'GET', ...REQUEST[where], headers })).statusCode);
        }
      }
    }
    out.set('spec', (await app.inject({ url: '/openapi.json' })).statusCode);
    out.set('spec/valid', (await app.inject({ url: '/openapi.json', headers: { ...AUTH } })).statusCode);
  } finally {
    await app.close();
  }
  return out;
}

let clean: Map<string, number>;
test.beforeAll(async () => {
  clean = await answers([]);
});

/** The probes whose answer the fault changed, with the new answer. */
async function changed(faults: string[]): Promise<Record<string, number>> {
  const broken = await answers(faults);
  return Object.fromEntries([...broken].filter(([k, v]) => clean.get(k) !== v));
}

const cells = (where: readonly Where[], rule: Rule, status: number) =>
  Object.fromEntries(where.flatMap((w) => BREAKS[rule].map((_, n) => [`${w}/${rule}#${n}`, status])));

test('auth faults: the clean service refuses every broken rule and serves the valid request', () => {
  for (const [k, v] of clean) {
    if (k.includes('valid') || k === 'spec') expect(v, k).toBe(200);
    else expect([400, 401, 403], k).toContain(v);
  }
});

for (const rule of AUTH_RULES) {
  for (const place of ['runtime', 'check-read', 'check-update'] as const) {
    test(`auth-skip:${place}:${rule} serves that rule's breaks on ${place} only`, async () => {
      expect(await changed([`auth-skip:${place}:${rule}`])).toEqual(cells([place], rule, 200));
    });
  }
  test(`auth-skip:any:${rule} serves that rule's breaks everywhere, and nothing else`, async () => {
    expect(await changed([`auth-skip:any:${rule}`])).toEqual(cells(PLACES, rule, 200));
  });
}

test('auth-skip:spec:<rule> changes nothing (the spec is public)', async () => {
  expect(await changed(AUTH_RULES.map((r) => `auth-skip:spec:${r}`))).toEqual({});
});

for (const place of ['runtime', 'check-read', 'check-update'] as const) {
  test(`auth-strict:${place} refuses the valid request on ${place} only`, async () => {
    expect(await changed([`auth-strict:${place}`])).toEqual(cells([place], 'valid', 401));
  });
}

test('auth-strict:spec refuses the spec, with or without credentials, and nothing else', async () => {
  expect(await changed(['auth-strict:spec'])).toEqual({ spec: 401, 'spec/valid': 401 });
});

test('auth-strict:any refuses every valid request and the spec', async () => {
  expect(await changed(['auth-strict:any'])).toEqual({ ...cells(PLACES, 'valid', 401), spec: 401, 'spec/valid': 401 });
});
