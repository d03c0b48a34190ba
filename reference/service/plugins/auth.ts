// Authentication of every /v1 route: bearer key first, then the account header (auth/seams.ts holds
// the rules). It runs on preParsing: after the rate limiter (onRequest) and before any body is read, so
// an anonymous 10 MB body is refused without being parsed.
import type { AuthSeams } from '../auth/seams';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Accounts } from '../accounts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The account the request acts for; null on the public routes. */
    accountId: string | null;
  }
}

export interface AuthOptions {
  seams: AuthSeams;
  accountHeader: string;
  accounts: Accounts;
}

export default fp(
  async function authPlugin(app: FastifyInstance, opts: AuthOptions) {
    const { seams, accounts } = opts;
    app.decorateRequest('accountId', null);
    app.addHook('preParsing', async (req: FastifyRequest) => {
      req.accountId = seams.accountOf({ req, accounts, header: seams.accountHeader(opts.accountHeader).toLowerCase() });
    });
  },
  { name: 'auth' },
);
