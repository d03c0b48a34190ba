// The seams of authentication (AUTH-*): its rules as small functions, read where they apply, so a plugin
// from outside (REFERENCE_PLUGINS) may change one before the service's own plugins are registered. Each
// step reads the others through the seams object at call time, so a change to one rule is seen by the
// step that asks it.
import type { FastifyRequest } from 'fastify';
import { GUID, type Accounts } from '../accounts';
import { apiError, type ApiError, type ErrorCode } from '../errors/catalogue';

/** The rules of authentication, in the order they are checked: each refusal names the one it enforces. */
export type CredentialRule = 'key' | 'scheme' | 'unknown-key' | 'account-missing' | 'account-empty' | 'account-malformed' | 'account-other';

/** A refusal of the credentials, naming the rule it enforces. */
export type Refusal = ApiError & { rule: CredentialRule };

export const refuse = (code: ErrorCode, rule: CredentialRule, detail?: string): Refusal => Object.assign(apiError(code, detail), { rule });

/**
 * The rule a refusal enforces, if what was thrown is one. Read by its shape, not its class: a plugin
 * bundled on its own has its own copy of the class, and its refusals (and its reading of ours) must still count.
 */
export const ruleOf = (e: unknown): CredentialRule | undefined =>
  e instanceof Error && typeof (e as Partial<Refusal>).rule === 'string' ? (e as Partial<Refusal>).rule : undefined;

/** What the auth step knows of a request: the request, the keys the service accepts, the header that names the account (lower case). */
export interface AuthContext {
  req: FastifyRequest;
  accounts: Accounts;
  header: string;
}

export interface AuthSeams {
  /** The header that names the account: the one configured (ACCOUNT_HEADER, X-Service-Account by default). */
  accountHeader(configured: string): string;
  /** The whole auth step: the account a request acts for, null on a route that asks for no credentials (the public documents). */
  accountOf(ctx: AuthContext): string | null;
  /** The key step (AUTH-1..3): the account of the key the request carries, or the 401 it deserves, thrown. */
  keyStep(ctx: AuthContext): string;
  /** The account step (AUTH-4..6): the account the request acts for, from the header's value and the key's account, or the 400/403 thrown. */
  accountStep(sent: string | undefined, keyAccount: string, ctx: AuthContext): string;
  /** The credentials offered: the Authorization header. */
  credential(ctx: AuthContext): string | undefined;
  /** The scheme check (AUTH-2): the key of `Bearer <key>` (the scheme in any case), undefined for anything else. */
  bearerKey(credential: string, ctx: AuthContext): string | undefined;
  /** Which account a key names (AUTH-3): the key table's, the key compared exactly. */
  keyAccount(key: string, ctx: AuthContext): string | undefined;
  /** How the account header is read: its value as sent (the first, if it was sent twice). */
  sentAccount(ctx: AuthContext): string | undefined;
  /** Whether a value is an account id (AUTH-4): a GUID, in either case. */
  isAccountId(value: string): boolean;
  /** The account a request may act for when its header names this GUID: the key's, if it is the key's (case aside); else none (403). */
  actsFor(sent: string, keyAccount: string, ctx: AuthContext): string | undefined;
}

export const authSeams = (): AuthSeams => {
  const seams: AuthSeams = {
    accountHeader: (configured) => configured,
    accountOf: (ctx) => (ctx.req.routeOptions.url?.startsWith('/v1/') ? seams.accountStep(seams.sentAccount(ctx), seams.keyStep(ctx), ctx) : null),
    keyStep: (ctx) => {
      const credential = seams.credential(ctx);
      if (typeof credential !== 'string' || !credential.trim()) throw refuse('AUTH_MISSING', 'key');
      const key = seams.bearerKey(credential, ctx);
      if (key === undefined) throw refuse('AUTH_SCHEME', 'scheme');
      const account = seams.keyAccount(key, ctx);
      if (account === undefined) throw refuse('AUTH_BAD_KEY', 'unknown-key');
      return account;
    },
    accountStep: (sent, keyAccount, ctx) => {
      if (sent === undefined) throw refuse('ACCOUNT_MISSING', 'account-missing');
      if (sent.trim() === '') throw refuse('ACCOUNT_MISSING', 'account-empty');
      if (!seams.isAccountId(sent)) throw refuse('ACCOUNT_NOT_GUID', 'account-malformed');
      const account = seams.actsFor(sent, keyAccount, ctx);
      if (account === undefined) throw refuse('ACCOUNT_FORBIDDEN', 'account-other');
      return account;
    },
    credential: ({ req }) => req.headers.authorization,
    bearerKey: (credential) => {
      const parts = credential.trim().split(/\s+/);
      return parts.length === 2 && parts[0].toLowerCase() === 'bearer' ? parts[1] : undefined;
    },
    keyAccount: (key, { accounts }) => accounts.keys.get(key),
    sentAccount: ({ req, header }) => {
      const value = req.headers[header];
      return Array.isArray(value) ? value[0] : value;
    },
    isAccountId: (value) => GUID.test(value),
    actsFor: (sent, keyAccount) => (sent.toLowerCase() === keyAccount ? keyAccount : undefined),
  };
  return seams;
};
