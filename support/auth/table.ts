/**
 * AUTH as data: the probes (one class of bad credentials each) and the places they are tried at; the
 * cases are every probe at every place, since a service may check a rule at one route and not another.
 * `carriesKey` marks probes with a valid key, which a limiter may count: the rate-limit work keeps them
 * out of its window (`probeCredentials`).
 */
import { randomUUID } from 'node:crypto';
import type { ClauseId } from '../document/clauses';
import { NEAR_MISS_OPERATORS, SENT_OPERATORS, type NearMissOperator } from '../document/near-miss';
import { askHeaders, CLIENT_ASKS, GUID_FORM } from '../document/facts';
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
  /** Tried only here (a generated probe goes to one place, pairwise); default: every place. */
  places?: readonly AuthPlace[];
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
/**
 * A key or GUID with one part changed (`one-part-changed`: each place another part), else its first
 * character: a service that compares only some parts (a prefix, the first group) takes it.
 */
const partChanged = (value: string, place: AuthPlace): string => {
  const made = NEAR_MISS_OPERATORS.find((o) => o.name === 'one-part-changed')!.apply(value, []) as string[];
  return made.length ? made[AUTH_PLACES.indexOf(place) % made.length] : `${value.startsWith('a') ? 'b' : 'a'}${value.slice(1)}`;
};

const guidOfNoAccount = (accountId: string, place: AuthPlace) => (AUTH_PLACES.indexOf(place) % 2 === 0 ? nearMiss('zero', accountId) : randomUUID());

/** Where an "API key from anywhere" option looks: the usual names, as query parameters and cookies, and headers. */
const KEY_NAMES = ['api_key', 'apiKey', 'access_token', 'token', 'key'];
const KEY_HEADERS = ['x-api-key', 'api-key', 'x-auth-token', 'authentication'];

/** A request without a key is refused whoever sends it (a login page for a browser is no refusal): one client a place. */
const askAt = (place: AuthPlace) => askHeaders(CLIENT_ASKS[AUTH_PLACES.indexOf(place) % CLIENT_ASKS.length]);

type Change = Pick<AuthProbe, 'headers'> & Partial<AuthProbe>;
/** Probes that change the Authorization header, or the account header, and nothing else. */
const authorization = (value: (key: string) => string): Change => ({ headers: (c) => ({ authorization: value(c.apiKey) }) });
const account = (value: (c: ProbeCredentials, place: AuthPlace) => string | null): Change => ({ headers: (c, h, place) => ({ [h]: value(c, place) }) });
/** The key offered any other way, with no Authorization header (only that header authenticates, AUTH-1): at `where`, under `names`. */
const offered = (where: 'query' | 'cookie' | 'header', names: string[]): Change => ({
  offers: { where, names },
  headers: (c) => ({
    authorization: null,
    ...(where === 'cookie' && { cookie: names.map((n) => `${n}=${c.apiKey}`).join('; ') }),
    // Authentication, Authorization misnamed, carries the key as Authorization would: in the bearer scheme.
    ...(where === 'header' && { [names[0]]: names[0] === 'authentication' ? `Bearer ${c.apiKey}` : c.apiKey }),
  }),
  query: where === 'query' ? (c) => ({ [names[0]]: c.apiKey }) : undefined,
});

/** Every probe, one row each: what it changes of a valid request. */
const PROBE_ROWS: ReadonlyArray<readonly [id: string, name: string, rule: AuthRule, carriesKey: boolean, change: Change]> = [
  ['no-authorization', 'no Authorization header', 'key', false, { headers: (_c, _h, place) => ({ authorization: null, ...askAt(place) }) }],
  // No route is public: a HEAD without credentials is refused as its GET is (or has no route: 404, 405).
  ['head-no-authorization', 'a HEAD request without an Authorization header', 'key', false, { method: 'HEAD', headers: () => ({ authorization: null }) }],
  ...KEY_NAMES.map((n) => [`key-in-query-${n}`, `no Authorization header, the key in the query parameter ${n}`, 'key', true, offered('query', [n])] as const),
  ['key-in-cookie', `no Authorization header, the key in cookies (${KEY_NAMES.join(', ')})`, 'key', true, offered('cookie', KEY_NAMES)],
  ...KEY_HEADERS.map((h) => [`key-in-header-${h}`, `no Authorization header, the key in the ${h} header`, 'key', true, offered('header', [h])] as const),
  ['token-scheme', 'key in the Token scheme', 'scheme', true, authorization((k) => `Token ${k}`)],
  ['basic-base64', 'key in the Basic scheme (base64 of key:)', 'scheme', true, authorization((k) => `Basic ${Buffer.from(`${k}:`).toString('base64')}`)],
  ['basic-raw', 'raw key in the Basic scheme', 'scheme', true, authorization((k) => `Basic ${k}`)],
  ['bare-key', 'bare key without a scheme', 'scheme', true, authorization((k) => k)],
  ['key-one-char-changed', 'bearer key with one character changed', 'unknown-key', false, authorization((k) => `Bearer ${oneCharChanged(k)}`)],
  ['unknown-key', 'unknown bearer key', 'unknown-key', false, authorization(() => `Bearer ${fakeKey()}`)],
  ['empty-bearer', 'empty bearer credentials', 'unknown-key', false, authorization(() => 'Bearer ')],
  // Look-alikes of the real key: a target that compares by prefix, by length or without case takes them.
  ['key-with-suffix', 'the bearer key with a character appended', 'unknown-key', true, authorization((k) => `Bearer ${k}x`)],
  ['key-truncated', 'the bearer key without its last character', 'unknown-key', false, authorization((k) => `Bearer ${k.slice(0, -1)}`)],
  ['key-other-case', 'the bearer key with its letters in the other case', 'unknown-key', false, authorization((k) => `Bearer ${swapCase(k)}`)],
  [
    'key-part-changed',
    'the bearer key with one of its parts changed (another part at each place)',
    'unknown-key',
    false,
    {
      headers: (c, _h, place) => ({ authorization: `Bearer ${partChanged(c.apiKey, place)}` }),
    },
  ],
  ['key-with-space', 'bearer key with a space inside', 'unknown-key', false, authorization((k) => `Bearer ${k.slice(0, 8)} ${k.slice(8)}`)],
  ['no-account', 'no account header', 'account-missing', true, account(() => null)],
  ['empty-account', 'empty account header', 'account-empty', true, account(() => '')],
  ['blank-account', 'account header of spaces', 'account-empty', true, account(() => '   ')],
  ['account-not-guid', 'account header that is not a GUID', 'account-malformed', true, account(() => 'not-a-guid')],
  ['account-guid-extra-char', 'account GUID with a character too many', 'account-malformed', true, account((c) => `${c.accountId}0`)],
  ['account-other', 'well-formed GUID of another account', 'account-other', true, account((c) => c.otherAccountId ?? randomUUID())],
  [
    'account-unknown-guid',
    'well-formed GUID of no account (the nil GUID at every other place)',
    'account-other',
    true,
    account((c, place) => guidOfNoAccount(c.accountId, place)),
  ],
  [
    'account-part-changed',
    'the account GUID with one of its groups changed (another group at each place)',
    'account-other',
    true,
    account((c, place) => partChanged(c.accountId, place)),
  ],
  // The same GUID in another case (the catalogue's first: upper): not another account, so a target may take it; only a 5xx is wrong.
  ['account-upper-case', 'the account GUID in another case', 'account-malformed', true, { ...account((c) => nearMiss('case', c.accountId)), expect: 'either' }],
];

/**
 * What an account header value is: the account's GUID as the document writes it (8-4-4-4-12 hex digits,
 * any case); another written form of a GUID that some parsers take (32 digits, in braces or parentheses, a
 * urn:uuid: prefix), which the document neither names nor forbids; or no GUID at all.
 */
function guidForm(v: string): 'canonical' | 'other-form' | 'malformed' {
  if (GUID_FORM.test(v)) return 'canonical';
  const inner = v.replace(/^urn:uuid:/i, '').replace(/^\{(.*)\}$|^\((.*)\)$/, '$1$2');
  return GUID_FORM.test(inner) || /^[0-9a-f]{32}$/i.test(inner) ? 'other-form' : 'malformed';
}

/** An operator's first value for a GUID that is no GUID in any written form (a space, another separator, a fullwidth digit…). */
const malformedBy = (op: NearMissOperator, guid: string) =>
  op.apply(guid, []).find((v): v is string => typeof v === 'string' && SENDABLE.test(v) && guidForm(v) === 'malformed');
/**
 * What a header can carry unchanged: printable ASCII (other characters are not sent as written), and no space at either end,
 * which a parser drops (RFC 9110 section 5.5) so that the value read is the valid one.
 */
const SENDABLE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** A GUID of the document's form, to decide which operators make a malformed one from any GUID. */
const SOME_GUID = '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c';

/**
 * The account GUID broken by each near-miss operator of the catalogue, one place each in turn (pairwise,
 * not every operator at every place): a malformed value must be refused, whatever part of it is wrong.
 */
const ACCOUNT_NEAR_MISSES: readonly AuthProbe[] = SENT_OPERATORS.filter((op) => malformedBy(op, SOME_GUID) !== undefined).map((op, i) => ({
  id: `account-near-miss-${op.name}`,
  name: `account GUID made malformed by ${op.name}`,
  rule: 'account-malformed',
  clause: RULE_CLAUSE['account-malformed'],
  carriesKey: true,
  expect: 'rejected',
  places: [AUTH_PLACES[i % AUTH_PLACES.length]],
  headers: (c, h) => ({ [h]: malformedBy(op, c.accountId) ?? `${c.accountId}-` }),
}));

export const AUTH_PROBES: readonly AuthProbe[] = [
  ...PROBE_ROWS.map(([id, name, rule, carriesKey, change]): AuthProbe => ({
    id,
    name,
    rule,
    clause: RULE_CLAUSE[rule],
    carriesKey,
    expect: 'rejected',
    ...change,
  })),
  ...ACCOUNT_NEAR_MISSES,
];

/** The places whose request is a GET (the update is not): where a probe of another method is tried. */
export const GET_PLACES: readonly AuthPlace[] = ['runtime', 'check-read', 'collection'];

/** Whether a probe is tried at a place: everywhere, a probe of its own method only instead of a GET. */
export const probeApplies = (probe: AuthProbe, place: AuthPlace) =>
  (!probe.method || GET_PLACES.includes(place)) && (!probe.places || probe.places.includes(place));

/** Every case, place by place: the valid request first (no probe: AUTH-4), then every probe that applies there. */
export function authCases(): { place: AuthPlace; probe?: AuthProbe }[] {
  return AUTH_PLACES.flatMap((place) => [{ place }, ...AUTH_PROBES.filter((p) => probeApplies(p, place)).map((p) => ({ place, probe: p }))]);
}

/**
 * The credentials a probe starts from: one that carries a valid key goes with the spare key where there
 * is one (so the main key's window holds only requests that certainly count or certainly do not), except
 * at the main account's own check (MAIN_ACCOUNT_PLACES). The other account is the main one for the spare
 * key, else `otherAccountId` (a real account whose key the probes may not spend).
 */
export function probeCredentials(
  probe: AuthProbe,
  place: AuthPlace,
  main: { apiKey: string; accountId: string },
  spare?: { apiKey: string; accountId: string },
  otherAccountId = spare?.accountId,
): ProbeCredentials & { which: 'main' | 'second' } {
  if (probe.carriesKey && spare && !MAIN_ACCOUNT_PLACES.includes(place))
    return { apiKey: spare.apiKey, accountId: spare.accountId, otherAccountId: main.accountId, which: 'second' };
  return { apiKey: main.apiKey, accountId: main.accountId, otherAccountId, which: 'main' };
}
