/** The AUTH table and the cases generated from it: every rule at every place, within the request budget. */
import { expect, test } from '@playwright/test';
import {
  AUTH_PLACES,
  AUTH_PROBES,
  authCases,
  GET_PLACES,
  MAIN_ACCOUNT_PLACES,
  probeCredentials,
  RULE_CLAUSE,
  type AuthPlace,
  type AuthProbe,
} from '../../support/auth/table';

const main = { apiKey: 'mon_main_0123456789abcdef0123456789abcdef', accountId: '11111111-2222-4333-8444-555555555555' };
const second = { apiKey: 'mon_second_fedcba9876543210fedcba98765432', accountId: '66666666-7777-4888-9999-aaaaaaaaaaaa' };
const HEADER = 'X-Service-Account';

/** The headers a probe ends up with, as the client merges them over the defaults. */
function sent(p: AuthProbe, creds = probeCredentials(p, 'runtime', main, second)) {
  return { authorization: `Bearer ${creds.apiKey}`, [HEADER]: creds.accountId, ...p.headers(creds, HEADER, 'runtime') } as Record<string, string | null>;
}

test('every rule and the valid request are tried at every place', () => {
  const cases = authCases();
  for (const place of AUTH_PLACES) {
    const clauses = new Set(cases.filter((c) => c.place === place).map((c) => c.probe?.clause ?? 'AUTH-4'));
    expect([...clauses].sort(), place).toEqual(['AUTH-1', 'AUTH-2', 'AUTH-3', 'AUTH-4', 'AUTH-5', 'AUTH-6']);
    const rules = new Set(cases.filter((c) => c.place === place && c.probe).map((c) => c.probe!.rule));
    expect(rules.size, `${place}: each rule of the fault vocabulary`).toBe(Object.keys(RULE_CLAUSE).length);
  }
});

test('the account GUID broken by the near-miss operators: each a malformed value, one place each in turn, every place reached', () => {
  const generated = AUTH_PROBES.filter((p) => p.id.startsWith('account-near-miss-'));
  expect(generated.length).toBeGreaterThanOrEqual(AUTH_PLACES.length);
  expect(new Set(generated.flatMap((p) => p.places ?? []))).toEqual(new Set(AUTH_PLACES));
  for (const p of generated) {
    expect(p.places, p.id).toHaveLength(1);
    const value = sent(p)[HEADER] as string;
    expect(value, p.id).toMatch(/^[\x21-\x7e][\x20-\x7e]*[\x21-\x7e]$/);
    expect(value, p.id).not.toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  }
});

test('every probe is tried at every place, the empty account header at the update among them; a HEAD at every GET place', () => {
  const cases = authCases();
  for (const p of AUTH_PROBES)
    expect(new Set(cases.filter((c) => c.probe === p).map((c) => c.place)), p.id).toEqual(new Set(p.places ?? (p.method ? GET_PLACES : AUTH_PLACES)));
  expect(cases.some((c) => c.place === 'check-update' && c.probe?.id === 'empty-account')).toBe(true);
  const head = AUTH_PROBES.filter((p) => p.method === 'HEAD');
  expect(head.map((p) => [p.rule, p.carriesKey, sent(p).authorization])).toEqual([['key', false, null]]);
  expect([...GET_PLACES].sort()).toEqual(AUTH_PLACES.filter((p) => p !== 'check-update').sort());
});

test("the GUID of no account is the catalogue's zero of the account (the nil GUID) at every other place, a random one at the rest", () => {
  const p = AUTH_PROBES.find((x) => x.id === 'account-unknown-guid')!;
  const at = (place: AuthPlace) => p.headers(probeCredentials(p, place, main, second), HEADER, place)[HEADER];
  const values = AUTH_PLACES.map(at);
  const nil = '00000000-0000-0000-0000-000000000000';
  expect(values.filter((v) => v === nil)).toHaveLength(AUTH_PLACES.length / 2);
  for (const v of values) expect(v).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(values.filter((v) => v !== nil && v !== main.accountId && v !== second.accountId)).toHaveLength(AUTH_PLACES.length / 2);
});

test('the family stays within its budget of about 180 requests, with two collections beside the operations', () => {
  const cases = authCases();
  const perCollection = cases.filter((c) => c.place === 'collection').length;
  // A full-body update reads the check first: one more request per update case.
  const updates = cases.filter((c) => c.place === 'check-update').length;
  expect(cases.length + perCollection + updates).toBeLessThanOrEqual(220);
  expect(cases.length + perCollection).toBeLessThanOrEqual(185);
});

test('the key offered any other way goes without an Authorization header, in each usual place', () => {
  const alt = AUTH_PROBES.filter((p) => p.offers);
  expect(alt.every((p) => p.clause === 'AUTH-1' && p.carriesKey)).toBe(true);
  for (const p of alt) expect(sent(p).authorization, p.id).toBeNull();
  const where = (w: string) => alt.filter((p) => p.offers!.where === w).flatMap((p) => p.offers!.names);
  expect(where('query')).toEqual(['api_key', 'apiKey', 'access_token', 'token', 'key']);
  expect(where('header')).toEqual(['x-api-key', 'api-key', 'x-auth-token', 'authentication']);
  expect(where('cookie').length).toBeGreaterThan(0);
  const creds = probeCredentials(alt[0], 'runtime', main, second);
  expect(alt[0].query!(creds)).toEqual({ api_key: second.apiKey });
  const header = AUTH_PROBES.find((p) => p.id === 'key-in-header-authentication')!;
  expect(sent(header).authentication).toBe(`Bearer ${second.apiKey}`);
});

test('value classes are unique, and the clause follows the rule', () => {
  expect(new Set(AUTH_PROBES.map((p) => p.id)).size).toBe(AUTH_PROBES.length);
  for (const p of AUTH_PROBES) expect(p.clause).toBe(RULE_CLAUSE[p.rule]);
});

test('carriesKey says whether the request carries a valid key, in any form', () => {
  for (const p of AUTH_PROBES) {
    const creds = probeCredentials(p, 'runtime', main, second);
    const auth = sent(p, creds).authorization ?? '';
    const decoded = /^Basic /.test(auth) ? Buffer.from(auth.slice(6), 'base64').toString('latin1') : '';
    const elsewhere = JSON.stringify([p.query?.(creds), sent(p, creds)]);
    const carries = auth.includes(creds.apiKey) || decoded.includes(creds.apiKey) || elsewhere.includes(creds.apiKey);
    expect(carries, p.id).toBe(p.carriesKey);
  }
});

test('a probe that carries the key is sent with the second key and account where they are configured', () => {
  for (const p of AUTH_PROBES) {
    const c = probeCredentials(p, 'runtime', main, second);
    expect(c.which, p.id).toBe(p.carriesKey ? 'second' : 'main');
    if (p.carriesKey) expect(c.otherAccountId).toBe(main.accountId);
    expect(probeCredentials(p, 'runtime', main).which).toBe('main');
  }
  // The other real account's GUID with the second key: the main account.
  const other = AUTH_PROBES.find((p) => p.id === 'account-other')!;
  expect(sent(other)[HEADER]).toBe(main.accountId);
  expect(sent(other).authorization).toBe(`Bearer ${second.apiKey}`);
});

test('account-header probes keep a valid key and change only the account header', () => {
  for (const p of AUTH_PROBES.filter((x) => x.rule.startsWith('account'))) {
    const h = sent(p);
    expect(h.authorization, p.id).toBe(`Bearer ${second.apiKey}`);
    expect(h[HEADER], p.id).not.toBe(second.accountId);
  }
});

test('the upper-case GUID of the right account is the only probe a target may serve', () => {
  const either = AUTH_PROBES.filter((p) => p.expect === 'either');
  expect(either.map((p) => p.id)).toEqual(['account-upper-case']);
  expect(sent(either[0])[HEADER]).toBe(second.accountId.toUpperCase());
});

test("at the main account's own check the main key is kept, with the second account as the other one", () => {
  for (const place of MAIN_ACCOUNT_PLACES) {
    for (const p of AUTH_PROBES) {
      const c = probeCredentials(p, place, main, second);
      expect(c.which, `${place} ${p.id}`).toBe('main');
      expect(c.otherAccountId).toBe(second.accountId);
    }
  }
  const other = AUTH_PROBES.find((p) => p.id === 'account-other')!;
  expect(other.headers(probeCredentials(other, 'check-read', main, second), HEADER, 'check-read')[HEADER]).toBe(second.accountId);
});
