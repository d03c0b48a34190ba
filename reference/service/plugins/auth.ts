// Authentication of every /v1 route: bearer key first, then the account header.
// It runs on preParsing: after the rate limiter (onRequest) and before any body is read, so an
// anonymous 10 MB body is refused without being parsed. The auth faults bend the rules here only:
// each rule asks `loose(rule)`, true when an auth-skip row covers the request's place. Under an
// apply-before row, the update's refusal for that rule is kept on the request instead (the handler
// applies the body, then throws it).
import type { AuthSeams } from '../auth/seams';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthRule } from '../../fault-kinds';
import type { Faults } from '../../faults';
import { GUID, type Accounts } from '../accounts';
import { ApiError, apiError, type ErrorCode } from '../errors/catalogue';
import { placeOf } from '../place';
import { altAuthorization } from '../alt-key';

declare module 'fastify' {
  interface FastifyRequest {
    accountId: string | null;
    /** apply-before: the credentials' refusal, thrown by the update once it has applied the body. */
    deferredRefusal: ApiError | null;
  }
}

/** A refusal that names the rule it enforces (what apply-before asks about). */
const refuse = (code: ErrorCode, rule: AuthRule, detail?: string) => Object.assign(apiError(code, detail), { rule });

export interface AuthOptions {
  faults: Faults;
  seams: AuthSeams;
  accountHeader: string;
  accounts: Accounts;
}
type Loose = (rule: AuthRule) => boolean;

/** ind6-auth-403-after-write: updates whose account header names another account, refused after the write. */
export const forbiddenAfterWrite = new WeakSet<FastifyRequest>();

/** The key a client meant when it used another scheme: `Basic <key>`, `Basic base64(<key>:)`, `Token <key>`, `<key>`. */
function keyOfOtherScheme(parts: string[], keys: Accounts['keys']): string | undefined {
  const token = parts[parts.length - 1];
  if (parts.length > 2) return undefined;
  if (keys.has(token)) return token;
  if (parts.length === 2 && parts[0].toLowerCase() === 'basic') {
    const user = Buffer.from(token, 'base64').toString('utf8').split(':')[0];
    if (keys.has(user)) return user;
  }
  return undefined;
}

/** ind6-auth-key-query-param: the query names a key may travel under in the dashboard's links. */
const QUERY_KEY_NAMES = ['api_key', 'apiKey', 'access_token', 'token', 'key'];
/** ind6-auth-guid-unanchored: the GUID pattern without its anchors, as a search. */
const GUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** ind7-auth-nil-guid-default-account: the GUID of all zeros. */
const NIL_GUID = '00000000-0000-0000-0000-000000000000';
/** ind8-auth-guid-uppercase-refused: the GUID pattern as written for the ids the service itself prints (lower case). */
const LOWER_CASE_GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** ind8-auth-account-exists-only, ind9-auth-malformed-key-fail-open: whether the service knows the account. */
const knownAccount = (accounts: Accounts, id: string) => [...accounts.keys.values()].includes(id);

/** The account of a key; under ind6-auth-key-case-insensitive, of a key in any case. */
function accountOfKey(token: string, faults: Faults, keys: Accounts['keys']): string | undefined {
  const exact = keys.get(token);
  if (exact || !faults.has('ind6-auth-key-case-insensitive')) return exact;
  return [...keys].find(([k]) => k.toLowerCase() === token.toLowerCase())?.[1];
}

/** ind9-auth-malformed-key-fail-open: what every key the service issues starts with (the parser splits it at its underscores). */
const KEY_PREFIX = 'mon_';

/** What the request says beside the key, for the ind9 auth faults: its route's role and the account header sent. */
interface Beside {
  place: ReturnType<typeof placeOf>;
  account?: string;
}

/** Returns the account of the key, or throws the 401 the credentials deserve. */
function authenticate(raw: string | undefined, loose: Loose, faults: Faults, accounts: Accounts, query?: unknown, beside: Beside = { place: null }): string {
  const { keys } = accounts;
  if (typeof raw !== 'string' || !raw.trim()) {
    if (loose('key')) return accounts.main;
    // ind6-auth-key-query-param: a request without the header may carry the key in its query.
    if (faults.has('ind6-auth-key-query-param') && query && typeof query === 'object') {
      const sent = QUERY_KEY_NAMES.map((n) => (query as Record<string, unknown>)[n]).find((v) => typeof v === 'string' && keys.has(v));
      if (typeof sent === 'string') return keys.get(sent)!;
    }
    throw refuse('AUTH_MISSING', 'key');
  }
  const parts = raw.trim().split(/\s+/);
  // ind9-auth-update-legacy-basic: the update route still runs the old dashboard's auth, which reads Basic base64(<key>:) too.
  if (faults.has('ind9-auth-update-legacy-basic') && beside.place === 'check-update' && parts.length === 2 && parts[0].toLowerCase() === 'basic') {
    const user = Buffer.from(parts[1], 'base64').toString('utf8').split(':')[0];
    if (keys.has(user)) return keys.get(user)!;
  }
  // ind-auth-bare-key: the "Bearer " prefix treated as optional, so the bare key passes.
  if (faults.has('ind-auth-bare-key') && parts.length === 1 && keys.has(parts[0])) return keys.get(parts[0])!;
  if (parts.length !== 2 || parts[0].toLowerCase() !== 'bearer') {
    const key = loose('scheme') ? keyOfOtherScheme(parts, keys) : undefined;
    if (key) return keys.get(key)!;
    throw refuse('AUTH_SCHEME', 'scheme');
  }
  // ind9-auth-malformed-key-fail-open: the key parser throws on a key without the prefix, and its catch goes on with the account header's account.
  const headerAccount = beside.account?.trim().toLowerCase();
  if (faults.has('ind9-auth-malformed-key-fail-open') && !parts[1].startsWith(KEY_PREFIX) && headerAccount && knownAccount(accounts, headerAccount))
    return headerAccount;
  // ind-auth-key-suffix: keys compared by prefix, so "<key>anything" is the key.
  const account =
    accountOfKey(parts[1], faults, keys) ??
    (faults.has('ind-auth-key-suffix') ? [...keys].find(([k]) => parts[1].startsWith(k))?.[1] : undefined) ??
    // auth-key-secret-part: keys looked up by their secret (after the last underscore), the prefix before it never compared.
    (faults.has('auth-key-secret-part') ? [...keys].find(([k]) => parts[1].split('_').at(-1) === k.split('_').at(-1))?.[1] : undefined);
  if (account) return account;
  if (loose('unknown-key')) return accounts.main;
  throw refuse('AUTH_BAD_KEY', 'unknown-key');
}

/** The account the request acts for: the key's, once the account header agrees with it. */
function resolveAccount(sent: string | undefined, keyAccount: string, loose: Loose, faults: Faults, accounts: Accounts, forbiddenDetail?: string): string {
  if (sent === undefined) {
    if (loose('account-missing')) return keyAccount;
    throw refuse('ACCOUNT_MISSING', 'account-missing');
  }
  if (sent.trim() === '') {
    if (loose('account-empty')) return keyAccount;
    throw refuse('ACCOUNT_MISSING', 'account-empty');
  }
  // ind7-auth-nil-guid-default-account: the nil GUID (Guid.Empty of an unset client field) read as "no account chosen".
  if (faults.has('ind7-auth-nil-guid-default-account') && sent.trim() === NIL_GUID) return keyAccount;
  // ind6-auth-guid-unanchored: the first GUID found in the value is the account.
  const found = faults.has('ind6-auth-guid-unanchored') ? GUID_ANYWHERE.exec(sent)?.[0] : undefined;
  if (found) sent = found;
  // auth-account-hex-only: the account read as its hexadecimal digits, whatever else the value holds.
  if (faults.has('auth-account-hex-only')) {
    const hex = sent.replace(/[^0-9a-f]/gi, '').toLowerCase();
    if (hex.length === 32) sent = hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
  }
  // ind8-auth-guid-uppercase-refused: matched by the case-sensitive pattern, so the same GUID in upper case is "malformed".
  if (!(faults.has('ind8-auth-guid-uppercase-refused') ? LOWER_CASE_GUID : GUID).test(sent)) {
    if (loose('account-malformed')) return keyAccount;
    throw refuse('ACCOUNT_NOT_GUID', 'account-malformed');
  }
  // ind8-auth-account-exists-only: "is this a real account?" asked instead of "is it the key's?"; the request acts for the account named.
  if (faults.has('ind8-auth-account-exists-only') && knownAccount(accounts, sent.toLowerCase())) return sent.toLowerCase();
  // auth-account-first-group: the account compared on the GUID's first group only.
  const sameAccount = faults.has('auth-account-first-group')
    ? sent.toLowerCase().split('-')[0] === keyAccount.split('-')[0]
    : sent.toLowerCase() === keyAccount;
  if (!sameAccount && !loose('account-other')) throw refuse('ACCOUNT_FORBIDDEN', 'account-other', forbiddenDetail);
  return keyAccount;
}

export default fp(
  async function authPlugin(app: FastifyInstance, opts: AuthOptions) {
    const { faults, accounts } = opts;
    // Under auth-wrong-account-header the service reads a header nobody documents.
    const header = (faults.has('auth-wrong-account-header') ? 'X-Account-Id' : opts.accountHeader).toLowerCase();
    app.decorateRequest('accountId', null);
    app.decorateRequest('deferredRefusal', null);
    // ind9-auth-login-redirect: the web app's session middleware sends a GET without credentials from a client that does not ask for JSON to its login page.
    if (faults.has('ind9-auth-login-redirect') || faults.has('auth-login-redirect')) {
      app.get('/login', { config: { rateLimit: false } }, async (_req, reply) =>
        reply
          .type('text/html; charset=utf-8')
          .send('<!doctype html><html><head><title>Sign in</title></head><body><form method="post"><input name="email"></form></body></html>'),
      );
      app.addHook('onRequest', async (req, reply) => {
        const asksJson = String(req.headers.accept ?? '').includes('application/json');
        if (req.method !== 'GET' || asksJson || req.headers.authorization !== undefined || !req.routeOptions.url?.startsWith('/v1/')) return;
        return reply.redirect('/login', 302);
      });
    }
    /** ind8-auth-account-remembered: the account header each key last sent, kept like a session. */
    const rememberedAccount = new Map<string, string>();
    app.addHook('preParsing', async (req: FastifyRequest) => {
      // auth-method (ind7-auth-head-unauthenticated): HEAD is what load balancers ping with, so it is let through unchecked.
      if (faults.authSkipsMethod(req.method)) return;
      const place = placeOf(req);
      const isV1 = !!req.routeOptions.url?.startsWith('/v1/');
      if (isV1) {
        // ind-auth-checks-account-optional: the checks routes fall back to the key's account.
        const checksFallBack = faults.has('ind-auth-checks-account-optional') && (place === 'check-read' || place === 'check-update');
        const loose: Loose = (rule) => faults.authSkips(place, rule) || ((rule === 'account-missing' || rule === 'account-empty') && checksFallBack);
        // ind-auth-403-echo-key: the 403 names the key "to help support".
        const echo = faults.has('ind-auth-403-echo-key') ? `key ${req.headers.authorization?.trim().split(/\s+/).pop()}` : undefined;
        const value = req.headers[header];
        const given = req.headers.authorization;
        const offered = typeof given === 'string' && given.trim() ? given : (altAuthorization(req, faults) ?? given);
        const sentAccount = Array.isArray(value) ? value[0] : value;
        try {
          const keyAccount = authenticate(offered, loose, faults, accounts, req.query, { place, account: sentAccount });
          try {
            // ind8-auth-account-remembered: a request without the header gets the one its key sent last.
            const remembered = faults.has('ind8-auth-account-remembered') && sentAccount === undefined ? rememberedAccount.get(keyAccount) : undefined;
            req.accountId = resolveAccount(sentAccount ?? remembered, keyAccount, loose, faults, accounts, echo);
            if (faults.has('ind8-auth-account-remembered') && sentAccount !== undefined) rememberedAccount.set(keyAccount, sentAccount);
          } catch (e) {
            // ind6-auth-403-after-write: the update's ownership check runs after the write (see the checks plugin).
            if (!(faults.has('ind6-auth-403-after-write') && place === 'check-update' && e instanceof ApiError && e.code === 'ACCOUNT_FORBIDDEN')) throw e;
            req.accountId = keyAccount;
            forbiddenAfterWrite.add(req);
          }
        } catch (e) {
          const rule = (e as { rule?: AuthRule }).rule;
          if (place !== 'check-update' || !rule || !faults.appliesBefore(rule)) throw e;
          req.deferredRefusal = e as ApiError;
        }
      }
      // auth-strict: what would be served here is refused (on the public spec route, every request).
      if ((isV1 || place === 'spec') && faults.authStrict(place)) throw apiError('AUTH_BAD_KEY');
    });
  },
  { name: 'auth' },
);
