// buildService: the whole reference service as a fastify instance, ready for inject() or listen().
// main.ts only reads the environment; tests call this directly with a fake clock.
import { answerClientError } from './errors/client-error';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { Faults, parseFaultList } from '../faults';
import { CheckStore, seedChecks } from './checks/store';
import { DEMO_ACCOUNTS, type Accounts } from './accounts';
import authPlugin from './plugins/auth';
import checksPlugin from './plugins/checks';
import errorsPlugin, { sendError } from './plugins/errors';
import { errorBody } from './errors/catalogue';
import openapiPlugin from './plugins/openapi';
import rateLimitPlugin from './plugins/rate-limit';
import runtimesPlugin from './plugins/runtimes';
import requestFaults from './plugins/request-faults';
import type { Clock } from './rate-limit/store';
import { makeSeams, type OutsidePlugin, type Seams } from './seams';

export interface ServiceOptions {
  /** Parsed faults, or MOCK_FAULT items (named faults and `kind:arg…` rows). */
  faults?: Faults | Iterable<string>;
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
  const faults = options.faults instanceof Faults ? options.faults : parseFaultList(options.faults ?? []);
  const accountHeader = options.accountHeader ?? DEFAULTS.accountHeader;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    // Long ids must reach the handler (and get 404 there), not be cut off by the router.
    routerOptions: { maxParamLength: 10_000 },
    // No coercion: "5" must stay a string so the body schema can reject it; all errors for the message.
    // The schemas are the service's own: not checked against the meta-schema at every start (its compile is a tenth of the start).
    ajv: { customOptions: { coerceTypes: false, allErrors: true, validateSchema: false } },
    // What the HTTP parser refuses (a request too large, one that does not parse): the error body, and the connection closed.
    clientErrorHandler: answerClientError,
    // A URL that cannot be decoded names no resource: 404 in our error shape, never fastify's own body.
    frameworkErrors: (err, _req, reply) => {
      const status = err.code === 'FST_ERR_BAD_URL' ? 404 : (err.statusCode ?? 400);
      return sendError(reply, faults, status, errorBody(status, status === 404 ? 'Not Found' : err.message));
    },
  });
  // Only JSON bodies are accepted; fastify's default text/plain parser would turn 415 into 400.
  app.removeContentTypeParser('text/plain');
  takeBodies(app, faults);
  const seams: Seams = makeSeams();
  for (const plugin of options.plugins ?? []) await app.register(fp(plugin as FastifyPluginAsync<Seams>), seams);

  await app.register(errorsPlugin, { faults, seams: seams.errors });
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
  await app.register(authPlugin, { faults, accountHeader, accounts, seams: seams.auth });
  await app.register(requestFaults, { faults });
  await app.register(openapiPlugin, { accountHeader });
  await app.register(runtimesPlugin, { faults, seams: seams.runtimes });
  await app.register(checksPlugin, { faults, seams: seams.checks, store: options.checks ?? new CheckStore(seedChecks(), accounts.main) });
  // ind8-err-405-empty-body: the router's "method not allowed" answer, which has no body of the API's shape.
  if (faults.has('ind8-err-405-empty-body')) methodNotAllowed(app);
  await app.ready();
  return app;
}

/** ind8-err-405-empty-body: the other methods of the two documented paths, answered 405 with an Allow header and nothing else. */
function methodNotAllowed(app: FastifyInstance): void {
  const allowed: Record<string, string> = { '/v1/runtimes/:id': 'GET, HEAD', '/v1/checks/:id': 'GET, HEAD, PUT' };
  for (const [url, allow] of Object.entries(allowed)) {
    const others = (['DELETE', 'PATCH', 'POST', 'PUT'] as const).filter((m) => !allow.includes(m));
    app.route({ method: [...others], url, handler: async (_req, reply) => reply.code(405).header('allow', allow).send() });
  }
}

const badBody = (message: string) => Object.assign(new Error(message), { statusCode: 400 });

/**
 * take-body faults: bodies that are no JSON object read as {} (the update then changes nothing and
 * answers 200), as a lenient parser would. Without them, fastify's own parsers stay in place.
 */
function takeBodies(app: FastifyInstance, faults: Faults): void {
  if (faults.takesBody('text')) app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, _text, done) => done(null, {}));
  if (faults.takesBody('array'))
    app.addHook('preValidation', async (req) => {
      if (Array.isArray(req.body)) req.body = {};
    });
  if (!faults.takesBody('not-json') && !faults.takesBody('empty')) return;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '')
      return faults.takesBody('empty') ? done(null, {}) : done(badBody('Body cannot be empty when content-type is set to application/json'), undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      if (faults.takesBody('not-json')) done(null, {});
      else done(badBody('Body is not valid JSON'), undefined);
    }
  });
}
