/**
 * The AUTH faults, applied from outside the service through the seams of its auth step
 * (reference/service/auth/seams.ts): a rule loosened, or bent, at the seam it is. Each record wraps the
 * seam it changes, so several faults compose; the order of this list is the order of the wrapping (a
 * later record wraps an earlier one): the whole step's wrappers run the method's skip outermost, as the
 * method was looked at first.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Accounts } from '../../../reference/service/accounts';
import { ruleOf, refuse, type AuthContext, type AuthSeams, type CredentialRule } from '../../../reference/service/auth/seams';
import { apiError, type ApiError } from '../../../reference/service/errors/catalogue';
import { placeOf } from '../../../reference/service/place';
import type { AltKeyWhere, Place } from '../catalogue/fault-kinds';
import type { KindFault, NamedFault, OutsideFault, Seam } from './seams';
import { TEST_FILES } from '../../../support/run/test-files';
import { reaching } from './reaching';

declare module 'fastify' {
  interface FastifyRequest {
    /** apply-before: the credentials' refusal, thrown by the update once it has applied the body (the checks plugin reads it). */
    deferredRefusal: ApiError | null;
  }
}

/** A change to the auth step's seams. */
const auth =
  (change: (seams: AuthSeams) => void): Seam =>
  (_app, seams) =>
    change(seams.auth);

const covers = (place: Place, req: FastifyRequest) => place === 'any' || place === placeOf(req);
const isV1 = (req: FastifyRequest) => !!req.routeOptions.url?.startsWith('/v1/');
/** Whether the service knows the account. */
const knownAccount = (accounts: Accounts, id: string) => [...accounts.keys.values()].includes(id);
const basicUser = (token: string) => Buffer.from(token, 'base64').toString('utf8').split(':')[0];

/** A refusal of the key step for one of these rules, where `where` holds, answered with the main account instead. */
const keyExcused = (rules: readonly CredentialRule[], where: (req: FastifyRequest) => boolean): Seam =>
  auth((a) => {
    const keyStep = a.keyStep;
    a.keyStep = (ctx) => {
      try {
        return keyStep(ctx);
      } catch (e) {
        if (rules.includes(ruleOf(e)!) && where(ctx.req)) return ctx.accounts.main;
        throw e;
      }
    };
  });

/** A refusal of the account step for one of these rules, where `where` holds, answered with the key's account instead. */
const accountExcused = (rules: readonly CredentialRule[], where: (req: FastifyRequest) => boolean): Seam =>
  auth((a) => {
    const accountStep = a.accountStep;
    a.accountStep = (sent, keyAccount, ctx) => {
      try {
        return accountStep(sent, keyAccount, ctx);
      } catch (e) {
        if (rules.includes(ruleOf(e)!) && where(ctx.req)) return keyAccount;
        throw e;
      }
    };
  });

/** The key a client meant when it used another scheme: `Basic <key>`, `Basic base64(<key>:)`, `Token <key>`, `<key>`. */
function keyOfOtherScheme(credential: string, keys: Accounts['keys']): string | undefined {
  const parts = credential.trim().split(/\s+/);
  const token = parts[parts.length - 1];
  if (parts.length > 2) return undefined;
  if (keys.has(token)) return token;
  if (parts.length === 2 && parts[0].toLowerCase() === 'basic' && keys.has(basicUser(token))) return basicUser(token);
  return undefined;
}

/** auth-skip: one rule not enforced on a place; a key refused is the main account's, an account refused the key's. */
const skip = (place: Place, rule: CredentialRule): Seam => {
  const where = (req: FastifyRequest) => covers(place, req);
  if (rule === 'key' || rule === 'unknown-key') return keyExcused([rule], where);
  if (rule !== 'scheme') return accountExcused([rule], where);
  return auth((a) => {
    const bearerKey = a.bearerKey;
    a.bearerKey = (credential, ctx) => bearerKey(credential, ctx) ?? (where(ctx.req) ? keyOfOtherScheme(credential, ctx.accounts.keys) : undefined);
  });
};

/** A credentials' value when the Authorization header is missing or blank: the one `elsewhere` finds, if any. */
const credentialElsewhere = (elsewhere: (ctx: AuthContext) => string | undefined): Seam =>
  auth((a) => {
    const credential = a.credential;
    a.credential = (ctx) => {
      const given = credential(ctx);
      return typeof given === 'string' && given.trim() ? given : (elsewhere(ctx) ?? given);
    };
  });

function cookie(req: FastifyRequest, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return decodeURIComponent(pair.slice(at + 1).trim());
  }
  return undefined;
}

/** auth-alt: a key offered in a query parameter, a cookie or another header (an optional "Bearer " before it), as a framework's "API key from anywhere" option takes it. */
const altKey = (rows: Array<{ where: AltKeyWhere; name: string }>): Seam => {
  const names = (where: AltKeyWhere) => rows.filter((r) => r.where === where).map((r) => r.name);
  return credentialElsewhere(({ req }) => {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const found = [
      ...names('query').map((n) => query[n]),
      ...names('cookie').map((n) => cookie(req, n)),
      ...names('header').map((n) => req.headers[n.toLowerCase()]),
    ].find((v): v is string => typeof v === 'string' && v.trim() !== '');
    return found === undefined ? undefined : `Bearer ${found.trim().replace(/^bearer\s+/i, '')}`;
  });
};

/** The query names a key may travel under in the dashboard's links. */
const QUERY_KEY_NAMES = ['api_key', 'apiKey', 'access_token', 'token', 'key'];

/** Requests of these methods let through unauthenticated (and unrefused). */
const methodSkipped = (methods: readonly string[]): Seam =>
  auth((a) => {
    const accountOf = a.accountOf;
    a.accountOf = (ctx) => (methods.includes(ctx.req.method) ? null : accountOf(ctx));
  });

/** Another lookup of a key's account, asked when the key table's own finds none. */
const keyAlsoFound = (lookup: (key: string, ctx: AuthContext) => string | undefined): Seam =>
  auth((a) => {
    const keyAccount = a.keyAccount;
    a.keyAccount = (key, ctx) => keyAccount(key, ctx) ?? lookup(key, ctx);
  });

/** Another key than the bearer token's, taken when the scheme check finds none. */
const schemeAlso = (key: (parts: string[], ctx: AuthContext) => string | undefined): Seam =>
  auth((a) => {
    const bearerKey = a.bearerKey;
    a.bearerKey = (credential, ctx) => bearerKey(credential, ctx) ?? key(credential.trim().split(/\s+/), ctx);
  });

/** The account header's value read otherwise before it is judged. */
const accountReadAs = (read: (value: string) => string): Seam =>
  auth((a) => {
    const sentAccount = a.sentAccount;
    a.sentAccount = (ctx) => {
      const sent = sentAccount(ctx);
      return sent === undefined ? sent : read(sent);
    };
  });

/** The GUID pattern without its anchors, as a search. */
const GUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** The GUID of all zeros. */
const NIL_GUID = '00000000-0000-0000-0000-000000000000';
/** The GUID pattern as written for the ids the service itself prints (lower case). */
const LOWER_CASE_GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** What every key the service issues starts with (the parser splits it at its underscores). */
const KEY_PREFIX = 'mon_';

/** Registered once per service, whichever of its names asks. */
const loginPages = new WeakSet<FastifyInstance>();
/** A GET without credentials from a client that does not ask for JSON sent (302) to a login page, as the web app's session middleware does; after the limiter, before the auth step. */
const loginRedirect: Seam = (app) => {
  if (loginPages.has(app)) return;
  loginPages.add(app);
  app.get('/login', { config: { rateLimit: false } }, async (_req, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .send('<!doctype html><html><head><title>Sign in</title></head><body><form method="post"><input name="email"></form></body></html>'),
  );
  app.addHook('preParsing', async (req, reply) => {
    const asksJson = String(req.headers.accept ?? '').includes('application/json');
    if (req.method !== 'GET' || asksJson || req.headers.authorization !== undefined || !isV1(req)) return;
    return reply.redirect('/login', 302);
  });
};

const KINDS: KindFault[] = [
  {
    // The update applies the body to the check named by the id, then throws the credentials' refusal (the checks plugin does both).
    kind: 'apply-before',
    clauses: ['CU-7'],
    apply: (rows) => (app, seams) => {
      app.decorateRequest('deferredRefusal', null);
      const accountOf = seams.auth.accountOf;
      seams.auth.accountOf = (ctx) => {
        try {
          return accountOf(ctx);
        } catch (e) {
          const rule = ruleOf(e);
          if (placeOf(ctx.req) !== 'check-update' || !rule || !rows.some((r) => r.rule === rule)) throw e;
          ctx.req.deferredRefusal = e as ApiError;
          return null;
        }
      };
    },
  },
  {
    // What would be served here is refused with 401 (on the public spec route, every request).
    kind: 'auth-strict',
    clauses: ['AUTH-4'],
    apply: (rows) =>
      auth((a) => {
        const accountOf = a.accountOf;
        a.accountOf = (ctx) => {
          const account = accountOf(ctx);
          if ((isV1(ctx.req) || placeOf(ctx.req) === 'spec') && rows.some((r) => covers(r.place, ctx.req))) throw apiError('AUTH_BAD_KEY');
          return account;
        };
      }),
  },
  {
    kind: 'auth-skip',
    clauses: ['AUTH-1', 'AUTH-2', 'AUTH-3', 'AUTH-5', 'AUTH-6'],
    apply: (rows) => (app, seams) => {
      for (const r of rows) skip(r.place, r.rule)(app, seams);
    },
  },
  { kind: 'auth-alt', clauses: ['AUTH-1'], apply: altKey },
];

/** The named faults that are one auth-skip row each. */
const SKIPS: NamedFault[] = [
  { name: 'auth-no-key-accepted', what: 'a request without Authorization is served', clauses: ['AUTH-1'], apply: skip('any', 'key') },
  { name: 'auth-any-scheme', what: 'Basic/Token/bare key accepted when the key is known', clauses: ['AUTH-2'], apply: skip('any', 'scheme') },
  { name: 'auth-any-key', what: 'any bearer key is accepted', clauses: ['AUTH-3'], apply: skip('any', 'unknown-key') },
  { name: 'auth-no-account-check', what: 'a missing account header is accepted', clauses: ['AUTH-5'], apply: skip('any', 'account-missing') },
  { name: 'auth-account-not-guid', what: 'a malformed account header is accepted', clauses: ['AUTH-6'], apply: skip('any', 'account-malformed') },
  { name: 'auth-other-account', what: 'any well-formed GUID is accepted as account', clauses: ['AUTH-6'], apply: skip('any', 'account-other') },
];

const NAMED: NamedFault[] = [
  {
    name: 'auth-login-redirect',
    what: 'a GET without credentials from a client that does not ask for JSON is redirected (302) to a login page',
    clauses: ['AUTH-1'],
    apply: loginRedirect,
  },
  // The web app's session middleware in front of the API.
  {
    name: 'ind9-auth-login-redirect',
    what: 'a GET to /v1 without Authorization from a client not asking for JSON is redirected (302) to an HTML login page',
    list: 'independent-9',
    clauses: ['AUTH-1'],
    apply: loginRedirect,
  },
  // The service reads a header nobody documents.
  {
    name: 'auth-wrong-account-header',
    what: 'account read from X-Account-Id instead of the documented header',
    clauses: ['AUTH-4'],
    reach: ['*'],
    apply: auth((a) => (a.accountHeader = () => 'X-Account-Id')),
  },
  // The update route still runs the old dashboard's auth, which reads Basic base64(<key>:) too.
  {
    name: 'ind9-auth-update-legacy-basic',
    what: "PUT /v1/checks/:id keeps the old dashboard's auth, which also takes Basic base64(<key>:)",
    list: 'independent-9',
    files: [TEST_FILES.auth, TEST_FILES.checkUpdate],
    clauses: ['AUTH-2'],
    apply: schemeAlso((parts, { req, accounts }) =>
      placeOf(req) === 'check-update' && parts.length === 2 && parts[0].toLowerCase() === 'basic' && accounts.keys.has(basicUser(parts[1]))
        ? basicUser(parts[1])
        : undefined,
    ),
  },
  // The "Bearer " prefix treated as optional, so the bare key passes.
  {
    name: 'ind-auth-bare-key',
    what: 'the bare key (no scheme) is accepted: the optional "Bearer " prefix is stripped',
    list: 'independent',
    clauses: ['AUTH-2'],
    apply: schemeAlso((parts, { accounts }) => (parts.length === 1 && accounts.keys.has(parts[0]) ? parts[0] : undefined)),
  },
  // A request without the header may carry the key in its query.
  {
    name: 'ind6-auth-key-query-param',
    what: 'without an Authorization header, the key is taken from the query (api_key, apiKey, access_token, token, key)',
    list: 'independent-6',
    clauses: ['AUTH-1'],
    apply: credentialElsewhere(({ req, accounts }) => {
      const query = req.query;
      if (!query || typeof query !== 'object') return undefined;
      const sent = QUERY_KEY_NAMES.map((n) => (query as Record<string, unknown>)[n]).find((v) => typeof v === 'string' && accounts.keys.has(v));
      return typeof sent === 'string' ? `Bearer ${sent}` : undefined;
    }),
  },
  // The key parser throws on a key without the prefix, and its catch goes on with the account header's account.
  {
    name: 'ind9-auth-malformed-key-fail-open',
    what: "a bearer key without the mon_ prefix makes the key parser throw, and the catch lets the request through as the account header's account",
    list: 'independent-9',
    clauses: ['AUTH-3'],
    apply: (_app, seams) => {
      const keyAccount = seams.auth.keyAccount;
      seams.auth.keyAccount = (key, ctx) => {
        const headerAccount = seams.auth.sentAccount(ctx)?.trim().toLowerCase();
        if (!key.startsWith(KEY_PREFIX) && headerAccount && knownAccount(ctx.accounts, headerAccount)) return headerAccount;
        return keyAccount(key, ctx);
      };
    },
  },
  // Keys compared case-insensitively.
  {
    name: 'ind6-auth-key-case-insensitive',
    what: 'API keys compared case-insensitively: the upper-cased key is accepted',
    list: 'independent-6',
    clauses: ['AUTH-3'],
    apply: keyAlsoFound((key, { accounts }) => [...accounts.keys].find(([k]) => k.toLowerCase() === key.toLowerCase())?.[1]),
  },
  // Keys compared by prefix, so "<key>anything" is the key.
  {
    name: 'ind-auth-key-suffix',
    what: 'a known key followed by extra characters is accepted (prefix comparison)',
    list: 'independent',
    clauses: ['AUTH-3'],
    apply: keyAlsoFound((key, { accounts }) => [...accounts.keys].find(([k]) => key.startsWith(k))?.[1]),
  },
  // Keys looked up by their secret (after the last underscore), the prefix before it never compared.
  {
    name: 'auth-key-secret-part',
    // Found by the one-part-changed operator: a structured value changed one part at a time.
    what: 'keys matched on their secret part (after the last underscore): the prefix before it is never compared',
    clauses: ['AUTH-3'],
    apply: keyAlsoFound((key, { accounts }) => [...accounts.keys].find(([k]) => key.split('_').at(-1) === k.split('_').at(-1))?.[1]),
  },
  // The checks routes fall back to the key's account.
  {
    name: 'ind-auth-checks-account-optional',
    what: "GET/PUT /v1/checks/:id without the account header use the key's account",
    list: 'independent',
    files: [TEST_FILES.auth, TEST_FILES.checkUpdate],
    clauses: ['AUTH-5'],
    reach: ['check-read#auth', 'check-update#auth'],
    apply: accountExcused(['account-missing', 'account-empty'], (req) => placeOf(req) === 'check-read' || placeOf(req) === 'check-update'),
  },
  // The nil GUID (Guid.Empty of an unset client field) read as "no account chosen".
  {
    name: 'ind7-auth-nil-guid-default-account',
    what: "the nil GUID 00000000-0000-0000-0000-000000000000 as account header is read as unset: the key's own account",
    list: 'independent-7',
    clauses: ['AUTH-6'],
    apply: auth((a) => {
      const accountStep = a.accountStep;
      a.accountStep = (sent, keyAccount, ctx) => (sent?.trim() === NIL_GUID ? keyAccount : accountStep(sent, keyAccount, ctx));
    }),
  },
  // The first GUID found in the value is the account.
  {
    name: 'ind6-auth-guid-unanchored',
    what: 'the account header is searched for a GUID, not matched whole: "{<guid>}", "<guid>x", "urn:uuid:<guid>" accepted',
    list: 'independent-6',
    clauses: ['AUTH-6'],
    apply: accountReadAs((sent) => GUID_ANYWHERE.exec(sent)?.[0] ?? sent),
  },
  // The account remembered in a cookie the service sets on every served answer, and read from it when the header is missing.
  {
    name: 'auth-account-from-cookie',
    // Found by a client that keeps cookies: every probe the target must refuse carries the cookies it set.
    what: 'served answers set a cookie naming the account, and a request without the account header that sends it back is served',
    clauses: ['AUTH-5'],
    apply: (app, seams) => {
      app.addHook('onSend', async (req, reply, payload) => {
        if (reply.statusCode < 300 && req.accountId) reply.header('set-cookie', `svc_account=${req.accountId}; Path=/; HttpOnly`);
        return payload;
      });
      const own = seams.auth.sentAccount;
      seams.auth.sentAccount = (ctx) => own(ctx) ?? /(?:^|;\s*)svc_account=([^;]+)/.exec(String(ctx.req.headers.cookie ?? ''))?.[1];
    },
  },
  // The account read as its hexadecimal digits, whatever else the value holds.
  {
    name: 'auth-account-hex-only',
    // Found by the near-miss catalogue applied to the account GUID.
    what: 'the account header read as its 32 hexadecimal digits: any other character in it (a space, another separator, a prefix) ignored',
    clauses: ['AUTH-6'],
    apply: accountReadAs((sent) => {
      const hex = sent.replace(/[^0-9a-f]/gi, '').toLowerCase();
      return hex.length === 32 ? hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5') : sent;
    }),
  },
  // Matched by the case-sensitive pattern, so the same GUID in upper case is "malformed".
  {
    name: 'ind8-auth-guid-uppercase-refused',
    what: 'the account GUID is matched by a lower-case-only pattern: the own account in upper case is refused 400',
    list: 'independent-8',
    clauses: ['AUTH-4'],
    apply: auth((a) => (a.isAccountId = (value) => LOWER_CASE_GUID.test(value))),
  },
  // "Is this a real account?" asked instead of "is it the key's?"; the request acts for the account named.
  {
    name: 'ind8-auth-account-exists-only',
    what: "the account header is only checked to name an existing account, not the key's: the key acts for any account it names",
    list: 'independent-8',
    clauses: ['AUTH-6'],
    apply: auth((a) => {
      const actsFor = a.actsFor;
      a.actsFor = (sent, keyAccount, ctx) => (knownAccount(ctx.accounts, sent.toLowerCase()) ? sent.toLowerCase() : actsFor(sent, keyAccount, ctx));
    }),
  },
  // The account compared on the GUID's first group only.
  {
    name: 'auth-account-first-group',
    what: "the account header compared on the GUID's first group only",
    clauses: ['AUTH-6'],
    apply: auth((a) => {
      const actsFor = a.actsFor;
      a.actsFor = (sent, keyAccount, ctx) => (sent.toLowerCase().split('-')[0] === keyAccount.split('-')[0] ? keyAccount : actsFor(sent, keyAccount, ctx));
    }),
  },
  // The 403 names the key "to help support".
  {
    name: 'ind-auth-403-echo-key',
    what: "the 403 for another account's GUID quotes the API key in its message",
    list: 'independent',
    clauses: ['AUTH-7'],
    reach: ['*#403'],
    apply: auth((a) => {
      const accountStep = a.accountStep;
      a.accountStep = (sent, keyAccount, ctx) => {
        try {
          return accountStep(sent, keyAccount, ctx);
        } catch (e) {
          if (ruleOf(e) !== 'account-other') throw e;
          throw refuse('ACCOUNT_FORBIDDEN', 'account-other', `key ${ctx.req.headers.authorization?.trim().split(/\s+/).pop()}`);
        }
      };
    }),
  },
  // The update's ownership check of the account header runs after the write: the update is stored, then refused.
  {
    name: 'ind6-auth-403-after-write',
    what: "PUT /v1/checks/:id with another account's GUID is answered 403 only after the update is stored",
    list: 'independent-6',
    clauses: ['AUTH-6', 'CU-7'],
    reach: ['*#403', 'check-update#valid', 'check-read#valid'],
    apply: (app, seams) => {
      const afterWrite = new WeakSet<FastifyRequest>();
      const accountStep = seams.auth.accountStep;
      seams.auth.accountStep = (sent, keyAccount, ctx) => {
        try {
          return accountStep(sent, keyAccount, ctx);
        } catch (e) {
          if (placeOf(ctx.req) !== 'check-update' || ruleOf(e) !== 'account-other') throw e;
          afterWrite.add(ctx.req);
          return keyAccount;
        }
      };
      app.addHook('preSerialization', async (req, reply, payload) => {
        if (!afterWrite.has(req) || reply.statusCode !== 200) return payload;
        afterWrite.delete(req);
        throw apiError('ACCOUNT_FORBIDDEN');
      });
    },
  },
  // The account header of a key is remembered like a session: a request without it gets the one its key sent last.
  {
    name: 'ind8-auth-account-remembered',
    what: 'the account header of a key is remembered: after one accepted request, the same key is served without the header',
    list: 'independent-8',
    clauses: ['AUTH-5'],
    apply: auth((a) => {
      const remembered = new Map<string, string>();
      const accountStep = a.accountStep;
      a.accountStep = (sent, keyAccount, ctx) => {
        const account = accountStep(sent ?? remembered.get(keyAccount), keyAccount, ctx);
        if (sent !== undefined) remembered.set(keyAccount, sent);
        return account;
      };
    }),
  },
];

/** Last, so that they wrap every other change to the whole step: HEAD is what load balancers ping with, so it is let through unchecked. */
const METHOD: KindFault = { kind: 'auth-method', clauses: ['AUTH-1'], apply: (rows) => methodSkipped(rows.map((r) => r.method)) };
const METHODS: OutsideFault[] = [
  METHOD,
  {
    name: 'ind7-auth-head-unauthenticated',
    what: 'HEAD requests to /v1 routes skip authentication (let through as load-balancer pings)',
    list: 'independent-7',
    clauses: ['AUTH-1'],
    apply: methodSkipped(['HEAD']),
  },
];

export const AUTH_FAULTS: OutsideFault[] = reaching(['*#auth'], [...KINDS, ...SKIPS, ...NAMED, ...METHODS]);
