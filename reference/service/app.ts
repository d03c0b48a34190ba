// buildService: the whole reference service as a fastify instance, ready for inject() or listen().
// main.ts only reads the environment; tests call this directly with a fake clock.
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { CheckStore, seedChecks } from './checks/store';
import { DEMO_ACCOUNTS, type Accounts } from './accounts';
import authPlugin from './plugins/auth';
import checksPlugin from './plugins/checks';
import errorsPlugin, { sendError } from './plugins/errors';
import { errorBody } from './errors/catalogue';
import openapiPlugin from './plugins/openapi';
import rateLimitPlugin from './plugins/rate-limit';
import runtimesPlugin from './plugins/runtimes';
import type { Clock } from './rate-limit/store';
import { makeSeams, type OutsidePlugin, type Seams } from './seams';

export interface ServiceOptions {
  rateLimitMax?: number;
  rateLimitWindowS?: number;
  rateLimitAlgorithm?: 'fixed' | 'sliding';
  /** RATE_LIMIT_COUNT_REFUSED: false counts only requests answered 2xx. */
  rateLimitCountRefused?: boolean;
  /** RATE_LIMIT_HEADERS: which limit a route with its own limit reports in its headers. */
  rateLimitHeaders?: 'route' | 'global';
  accountHeader?: string;
  /** The keys it accepts and their accounts (REF_API_KEY and the like); the demo ones by default. */
  accounts?: Accounts;
  clock?: Clock;
  logger?: boolean;
  checks?: CheckStore;
  /**
   * Plugins from outside (REFERENCE_PLUGINS names their modules): registered first and unencapsulated,
   * as fastify-plugin would, so that their hooks see every route and run before the service's own. Each
   * gets the service's seams (seams.ts) as its options, and may change them before the service reads them.
   */
  plugins?: OutsidePlugin[];
}

export const DEFAULTS = {
  rateLimitMax: 600,
  rateLimitWindowS: 60,
  rateLimitAlgorithm: 'fixed',
  rateLimitCountRefused: true,
  rateLimitHeaders: 'route',
  accountHeader: 'X-Service-Account',
} as const;

/** 1 MB: larger bodies get 413 before they are parsed. */
export const BODY_LIMIT = 1024 * 1024;

export async function buildService(options: ServiceOptions = {}): Promise<FastifyInstance> {
  const accountHeader = options.accountHeader ?? DEFAULTS.accountHeader;
  const seams: Seams = makeSeams();
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    // Long ids must reach the handler (and get 404 there), not be cut off by the router.
    routerOptions: { maxParamLength: 10_000 },
    // No coercion: "5" must stay a string so the body schema can reject it; all errors for the message.
    // The schemas are the service's own: not checked against the meta-schema at every start (its compile is a tenth of the start).
    ajv: { customOptions: { coerceTypes: false, allErrors: true, validateSchema: false } },
    // What the HTTP parser refuses (a request too large, one that does not parse): the error body, and the connection closed.
    clientErrorHandler: (err, socket) => seams.errors.parserRefusal(err, socket),
    // A URL that cannot be decoded names no resource: 404 in our error shape, never fastify's own body.
    frameworkErrors: (err, _req, reply) => {
      const status = err.code === 'FST_ERR_BAD_URL' ? 404 : (err.statusCode ?? 400);
      return sendError(reply, status, errorBody(status, status === 404 ? 'Not Found' : err.message));
    },
  });
  // Only JSON bodies are accepted; fastify's default text/plain parser would turn 415 into 400.
  app.removeContentTypeParser('text/plain');
  for (const plugin of options.plugins ?? []) await app.register(fp(plugin as FastifyPluginAsync<Seams>), seams);

  await app.register(errorsPlugin, { seams: seams.errors });
  await app.register(rateLimitPlugin, {
    seams: seams.rateLimit,
    max: options.rateLimitMax ?? DEFAULTS.rateLimitMax,
    windowSeconds: options.rateLimitWindowS ?? DEFAULTS.rateLimitWindowS,
    algorithm: options.rateLimitAlgorithm ?? DEFAULTS.rateLimitAlgorithm,
    clock: options.clock ?? Date.now,
    countRefused: options.rateLimitCountRefused ?? DEFAULTS.rateLimitCountRefused,
    headers: options.rateLimitHeaders ?? DEFAULTS.rateLimitHeaders,
  });
  const accounts = options.accounts ?? DEMO_ACCOUNTS;
  await app.register(authPlugin, { accountHeader, accounts, seams: seams.auth });
  await app.register(openapiPlugin, { accountHeader });
  await app.register(runtimesPlugin, { seams: seams.runtimes });
  seams.checks.store = options.checks ?? new CheckStore(seedChecks(), accounts.main);
  await app.register(checksPlugin, { seams: seams.checks });
  await app.ready();
  return app;
}
