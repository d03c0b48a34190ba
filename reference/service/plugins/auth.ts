// Authentication of every /v1 route: bearer key first, then the account header.
// It runs on preParsing: after the rate limiter (onRequest) and before any body is read, so an
// anonymous 10 MB body is refused without being parsed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Faults } from '../../faults';
import { API_KEYS, DEMO_ACCOUNT_ID, GUID } from '../accounts';
import { apiError } from '../errors/catalogue';

declare module 'fastify' {
  interface FastifyRequest { accountId: string | null }
}

export interface AuthOptions { faults: Faults; accountHeader: string }

/** Returns the account of the key, or throws the 401 the credentials deserve. */
function authenticate(req: FastifyRequest, faults: Faults): string | null {
  const raw = req.headers.authorization;
  if (typeof raw !== 'string' || !raw.trim()) {
    if (faults.has('auth-no-key-accepted')) return DEMO_ACCOUNT_ID;
    throw apiError('AUTH_MISSING');
  }
  const parts = raw.trim().split(/\s+/);
  const scheme = parts.length === 2 ? parts[0] : '';
  const token = parts[parts.length - 1];
  const isBearer = parts.length === 2 && scheme.toLowerCase() === 'bearer';
  // ind-auth-bare-key: the "Bearer " prefix treated as optional, so the bare key passes.
  if (faults.has('ind-auth-bare-key') && parts.length === 1 && API_KEYS.has(token)) return API_KEYS.get(token)!;
  const echo = faults.has('auth-echo-key') ? `"${token}"` : undefined;
  if (!isBearer && !(faults.has('auth-any-scheme') && parts.length <= 2 && API_KEYS.has(token))) {
    throw apiError('AUTH_SCHEME', echo);
  }
  // ind-auth-key-suffix: keys compared by prefix, so "<key>anything" is the key.
  const account = API_KEYS.get(token)
    ?? (faults.has('ind-auth-key-suffix') ? [...API_KEYS].find(([k]) => token.startsWith(k))?.[1] : undefined);
  if (account) return account;
  if (faults.has('auth-any-key')) return null; // "any key": the account header alone decides
  throw apiError('AUTH_BAD_KEY', echo);
}

export default fp(async function authPlugin(app: FastifyInstance, opts: AuthOptions) {
  const { faults } = opts;
  // Under auth-wrong-account-header the service reads a header nobody documents.
  const header = (faults.has('auth-wrong-account-header') ? 'X-Account-Id' : opts.accountHeader).toLowerCase();
  app.decorateRequest('accountId', null);
  app.addHook('preParsing', async (req) => {
    if (!req.routeOptions.url?.startsWith('/v1/')) return;
    const keyAccount = authenticate(req, faults);
    const value = req.headers[header];
    const sent = Array.isArray(value) ? value[0] : value;
    if (sent === undefined || sent === '') {
      // ind-auth-checks-account-optional: the checks routes fall back to the key's account.
      if (faults.has('ind-auth-checks-account-optional') && keyAccount && req.routeOptions.url?.startsWith('/v1/checks/')) {
        req.accountId = keyAccount;
        return;
      }
      if (!faults.has('auth-no-account-check')) throw apiError('ACCOUNT_MISSING');
      req.accountId = keyAccount ?? DEMO_ACCOUNT_ID;
      return;
    }
    if (!GUID.test(sent)) {
      if (!faults.has('auth-account-not-guid')) throw apiError('ACCOUNT_NOT_GUID');
      req.accountId = keyAccount ?? DEMO_ACCOUNT_ID;
      return;
    }
    if (keyAccount && sent.toLowerCase() !== keyAccount && !faults.has('auth-other-account')) {
      // ind-auth-403-echo-key: the message names the key "to help support".
      const key = faults.has('ind-auth-403-echo-key') ? `key ${req.headers.authorization?.trim().split(/\s+/).pop()}` : undefined;
      throw apiError('ACCOUNT_FORBIDDEN', key);
    }
    req.accountId = keyAccount ?? sent.toLowerCase();
  });
}, { name: 'auth' });
