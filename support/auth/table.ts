/**
 * AUTH as data: the probes (one class of bad credentials each) and the places they are tried at; the
 * cases are every probe at every place, since a service may check a rule at one route and not another.
 * `carriesKey` marks probes with a valid key, which a limiter may count: the rate-limit work keeps them
 * out of its window (`probeCredentials`).
 */
import { randomUUID } from 'node:crypto';
import type { ClauseId } from '../document/clauses';
import { NEAR_MISS_OPERATORS } from '../document/near-miss';
import { CLIENT_ACCEPTS } from '../document/facts';
import type { HeaderOverrides } from '../http/client';

/** Where AUTH is tried: the route roles, and the parameterless collections beside them (`GET /v1/runtimes`). */
export const AUTH_PLACES = ['runtime', 'check-read', 'check-update', 'collection'] as const;
export type AuthPlace = (typeof AUTH_PLACES)[number];

/**
 * Places that address one resource of the main account (the check named by CHECK_ID): the second key
 * would get a 404 there whatever the credentials, so only the main key lets the credentials decide.
 */
export const MAIN_ACCOUNT_PLACES: readonly AuthPlace[] = ['check-read', 'check-update'];

/** The rule a probe tries, in the words the reference's faults use (`auth-skip:<place>:<rule>`). */
export type AuthRule = 'key' | 'scheme' | 'unknown-key' | 'account-missing' | 'account-empty' | 'account-malformed' | 'account-other';

export const RULE_CLAUSE: Readonly<Record<AuthRule, ClauseId>> = {
  key: 'AUTH-1',
  scheme: 'AUTH-2',
  'unknown-key': 'AUTH-3',
  'account-missing': 'AUTH-5',
  'account-empty': 'AUTH-5',
  'account-malformed': 'AUTH-6',
  'account-other': 'AUTH-6',
};

/** The credentials a probe starts from, and the other account's id where one is known. */
export interface ProbeCredentials {
  apiKey: string;
  accountId: string;
  /** A real account the key does not belong to (the main account when probing with the second key). */
  otherAccountId?: string;
}

export interface AuthProbe {
  /** Short and stable: the value class the checks are stamped with. */
  id: string;
  name: string;
  rule: AuthRule;
  clause: ClauseId;
  /** The request carries a valid key (as bearer or in another scheme). */
  carriesKey: boolean;
  /**
   * `rejected`: a 4xx with the error body. `either`: the document does not decide (the right account's
   * GUID in upper case is the same GUID); only a 5xx fails.
   */
  expect: 'rejected' | 'either';
  headers: (c: ProbeCredentials, accountHeader: string, place: AuthPlace) => HeaderOverrides;
  /** Query parameters added to the place's own (the key offered in one). */
  query?: (c: ProbeCredentials) => Record<string, string>;
  /** The key offered outside the Authorization header: where, under which names. */
  offers?: { where: 'query' | 'cookie' | 'header'; names: string[] };
  /**
   * Sent with this method instead of the place's GET (HEAD: the GET of HTTP semantics, which a service
   * may route or let through apart from it); tried only at the places whose request is a GET.
   */
  method?: 'HEAD';
}

const fakeKey = () => `mon_${randomUUID().replace(/-/g, '')}`;
const swapCase = (k: string) => [...k].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
const oneCharChanged = (k: string) => `${k.slice(0, -1)}${k.endsWith('x') ? 'y' : 'x'}`;

/** The near-miss catalogue's result of one operator on a value (the first, where it makes several). */
const nearMiss = (operator: string, value: string): string => {
  const made = NEAR_MISS_OPERATORS.find((o) => o.name === operator)!.apply(value, []);
  if (typeof made[0] !== 'string') throw new Error(`near-miss operator ${operator} makes no string of ${value}`);
  return made[0];
};

/**
 * A well-formed GUID of no account, by place: the zero of the account's GUID (the nil GUID, which a
 * service may read as "no account chosen") at every other place, a random one at the rest, so that
 * each meets two places for the price of one probe.
 */
const guidOfNoAccount = (accountId: string, place: AuthPlace) => (AUTH_PLACES.indexOf(place) % 2 === 0 ? nearMiss('zero', accountId) : randomUUID());

const probe = (p: Omit<AuthProbe, 'clause' | 'expect'> & { expect?: AuthProbe['expect'] }): AuthProbe => ({
  expect: 'rejected',
  ...p,
  clause: RULE_CLAUSE[p.rule],
});

/** Where an "API key from anywhere" option looks: the usual query parameters, cookies and headers. */
const KEY_QUERY_PARAMETERS = ['api_key', 'apiKey', 'access_token', 'token', 'key'] as const;
const KEY_COOKIES = ['api_key', 'apiKey', 'access_token', 'token', 'key'] as const;
const KEY_HEADERS: ReadonlyArray<readonly [string, (key: string) => string]> = [
  ['x-api-key', (k) => k],
  ['api-key', (k) => k],
  ['x-auth-token', (k) => k],
  ['authentication', (k) => `Bearer ${k}`],
];

/** A request without a key is refused whoever sends it (a login page for a browser is no refusal): one client a place. */
const acceptAt = (place: AuthPlace) => CLIENT_ACCEPTS[AUTH_PLACES.indexOf(place) % CLIENT_ACCEPTS.length];

export const AUTH_PROBES: readonly AuthProbe[] = [
  probe({
    id: 'no-authorization',
    name: 'no Authorization header',
    rule: 'key',
    carriesKey: false,
    headers: (_c, _h, place) => ({ authorization: null, accept: acceptAt(place) }),
  }),
  // No route is public: a HEAD without credentials is refused as its GET is (or has no route: 404, 405).
  probe({
    id: 'head-no-authorization',
    name: 'a HEAD request without an Authorization header',
    rule: 'key',
    carriesKey: false,
    method: 'HEAD',
    headers: () => ({ authorization: null }),
  }),
  // The key offered any other way, with no Authorization header: only that header authenticates (AUTH-1).
  ...KEY_QUERY_PARAMETERS.map((name) =>
    probe({
      id: `key-in-query-${name}`,
      name: `no Authorization header, the key in the query parameter ${name}`,
      rule: 'key',
      carriesKey: true,
      headers: () => ({ authorization: null }),
      query: (c) => ({ [name]: c.apiKey }),
      offers: { where: 'query', names: [name] },
    }),
  ),
  probe({
    id: 'key-in-cookie',
    name: `no Authorization header, the key in cookies (${KEY_COOKIES.join(', ')})`,
    rule: 'key',
    carriesKey: true,
    headers: (c) => ({ authorization: null, cookie: KEY_COOKIES.map((n) => `${n}=${c.apiKey}`).join('; ') }),
    offers: { where: 'cookie', names: [...KEY_COOKIES] },
  }),
  ...KEY_HEADERS.map(([header, value]) =>
    probe({
      id: `key-in-header-${header}`,
      name: `no Authorization header, the key in the ${header} header`,
      rule: 'key',
      carriesKey: true,
      headers: (c) => ({ authorization: null, [header]: value(c.apiKey) }),
      offers: { where: 'header', names: [header] },
    }),
  ),

  probe({
    id: 'token-scheme',
    name: 'key in the Token scheme',
    rule: 'scheme',
    carriesKey: true,
    headers: (c) => ({ authorization: `Token ${c.apiKey}` }),
  }),
  probe({
    id: 'basic-base64',
    name: 'key in the Basic scheme (base64 of key:)',
    rule: 'scheme',
    carriesKey: true,
    headers: (c) => ({ authorization: `Basic ${Buffer.from(`${c.apiKey}:`).toString('base64')}` }),
  }),
  probe({
    id: 'basic-raw',
    name: 'raw key in the Basic scheme',
    rule: 'scheme',
    carriesKey: true,
    headers: (c) => ({ authorization: `Basic ${c.apiKey}` }),
  }),
  probe({
    id: 'bare-key',
    name: 'bare key without a scheme',
    rule: 'scheme',
    carriesKey: true,
    headers: (c) => ({ authorization: c.apiKey }),
  }),

  probe({
    id: 'key-one-char-changed',
    name: 'bearer key with one character changed',
    rule: 'unknown-key',
    carriesKey: false,
    headers: (c) => ({ authorization: `Bearer ${oneCharChanged(c.apiKey)}` }),
  }),
  probe({
    id: 'unknown-key',
    name: 'unknown bearer key',
    rule: 'unknown-key',
    carriesKey: false,
    headers: () => ({ authorization: `Bearer ${fakeKey()}` }),
  }),
  probe({
    id: 'empty-bearer',
    name: 'empty bearer credentials',
    rule: 'unknown-key',
    carriesKey: false,
    headers: () => ({ authorization: 'Bearer ' }),
  }),
  // Look-alikes of the real key: a target that compares by prefix, by length or without case takes them.
  probe({
    id: 'key-with-suffix',
    name: 'the bearer key with a character appended',
    rule: 'unknown-key',
    carriesKey: true,
    headers: (c) => ({ authorization: `Bearer ${c.apiKey}x` }),
  }),
  probe({
    id: 'key-truncated',
    name: 'the bearer key without its last character',
    rule: 'unknown-key',
    carriesKey: false,
    headers: (c) => ({ authorization: `Bearer ${c.apiKey.slice(0, -1)}` }),
  }),
  probe({
    id: 'key-other-case',
    name: 'the bearer key with its letters in the other case',
    rule: 'unknown-key',
    carriesKey: false,
    headers: (c) => ({ authorization: `Bearer ${swapCase(c.apiKey)}` }),
  }),
  probe({
    id: 'key-with-space',
    name: 'bearer key with a space inside',
    rule: 'unknown-key',
    carriesKey: false,
    headers: (c) => ({ authorization: `Bearer ${c.apiKey.slice(0, 8)} ${c.apiKey.slice(8)}` }),
  }),

  probe({ id: 'no-account', name: 'no account header', rule: 'account-missing', carriesKey: true, headers: (_c, h) => ({ [h]: null }) }),
  probe({
    id: 'empty-account',
    name: 'empty account header',
    rule: 'account-empty',
    carriesKey: true,
    headers: (_c, h) => ({ [h]: '' }),
  }),
  probe({ id: 'blank-account', name: 'account header of spaces', rule: 'account-empty', carriesKey: true, headers: (_c, h) => ({ [h]: '   ' }) }),

  probe({
    id: 'account-not-guid',
    name: 'account header that is not a GUID',
    rule: 'account-malformed',
    carriesKey: true,
    headers: (_c, h) => ({ [h]: 'not-a-guid' }),
  }),
  probe({
    id: 'account-guid-extra-char',
    name: 'account GUID with a character too many',
    rule: 'account-malformed',
    carriesKey: true,
    headers: (c, h) => ({ [h]: `${c.accountId}0` }),
  }),

  probe({
    id: 'account-other',
    name: 'well-formed GUID of another account',
    rule: 'account-other',
    carriesKey: true,
    headers: (c, h) => ({ [h]: c.otherAccountId ?? randomUUID() }),
  }),
  probe({
    id: 'account-unknown-guid',
    name: 'well-formed GUID of no account (the nil GUID at every other place)',
    rule: 'account-other',
    carriesKey: true,
    headers: (c, h, place) => ({ [h]: guidOfNoAccount(c.accountId, place) }),
  }),
  // The same GUID in another case (the catalogue's first: upper): not another account, so a target may take it; only a 5xx is wrong.
  probe({
    id: 'account-upper-case',
    name: 'the account GUID in another case',
    rule: 'account-malformed',
    carriesKey: true,
    expect: 'either',
    headers: (c, h) => ({ [h]: nearMiss('case', c.accountId) }),
  }),
];

export interface AuthCase {
  place: AuthPlace;
  /** Undefined: the valid request (AUTH-4). */
  probe?: AuthProbe;
}

/** The places whose request is a GET (the update is not): where a probe of another method is tried. */
export const GET_PLACES: readonly AuthPlace[] = ['runtime', 'check-read', 'collection'];

/** Whether a probe is tried at a place: everywhere, a probe of its own method only instead of a GET. */
export const probeApplies = (probe: AuthProbe, place: AuthPlace) => !probe.method || GET_PLACES.includes(place);

/** Every case, place by place: the valid request first, then every probe that applies there. */
export function authCases(probes: readonly AuthProbe[] = AUTH_PROBES): AuthCase[] {
  return AUTH_PLACES.flatMap((place) => [{ place }, ...probes.filter((p) => probeApplies(p, place)).map((p) => ({ place, probe: p }))]);
}

/**
 * The credentials a probe starts from: one that carries a valid key goes with the second key where one
 * is configured (so the main key's window holds only requests that certainly count or certainly do
 * not), except at the main account's own check (MAIN_ACCOUNT_PLACES).
 */
export function probeCredentials(
  probe: AuthProbe,
  place: AuthPlace,
  main: { apiKey: string; accountId: string },
  second?: { apiKey: string; accountId: string },
): ProbeCredentials & { which: 'main' | 'second' } {
  if (probe.carriesKey && second && !MAIN_ACCOUNT_PLACES.includes(place))
    return { apiKey: second.apiKey, accountId: second.accountId, otherAccountId: main.accountId, which: 'second' };
  return { apiKey: main.apiKey, accountId: main.accountId, otherAccountId: second?.accountId, which: 'main' };
}

/** How many requests of the cases carry the main key although the target refuses them (uncertain for a limiter). */
export function uncertainMainKeyRequests(cases: readonly AuthCase[], secondConfigured: boolean): number {
  return cases.filter((c) => c.probe?.carriesKey && c.probe.expect === 'rejected' && (!secondConfigured || MAIN_ACCOUNT_PLACES.includes(c.place))).length;
}
