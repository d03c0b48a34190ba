// Rate limiting through @fastify/rate-limit: keyed by API key, our own stores, our 429 builder.
// Registered before the routes so its onRoute hook sees them; it runs on onRequest, i.e. before auth
// (which runs on preParsing), so unauthenticated floods are limited too. The limit, the window, the
// bucket of a request, the store and the 429 are the part's seams (rate-limit/seams.ts), read here.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { reportGlobalLimit } from '../rate-limit/global-headers';
import type { Algorithm, RateLimitSeams } from '../rate-limit/seams';
import { hitKey, withOptions, type Clock, type RateLimitStore } from '../rate-limit/store';

export interface RateLimitOptions {
  seams: RateLimitSeams;
  max: number;
  windowSeconds: number;
  algorithm: Algorithm;
  clock: Clock;
  /**
   * Whether a request the service refuses (4xx, 5xx) counts against the limit. The document does not
   * say; both are correct. false: only requests answered 2xx count, the others are refunded.
   */
  countRefused: boolean;
  /**
   * Which limit the x-ratelimit-* headers of a route with a limit of its own describe: `route` its own,
   * `global` the key's global window (the route then counts in that window too). Both are correct.
   */
  headers: 'route' | 'global';
}

/** A route with a limit of its own (the runtime list) keeps it whatever happens to the global one. */
export const hasOwnLimit = (req: FastifyRequest): boolean => typeof (req.routeOptions.config as { rateLimit?: unknown }).rateLimit === 'object';

/** The window of the limit a request counts against: its route's own, or the global one. */
export const windowMsOf = (req: FastifyRequest, globalWindowMs: number): number => {
  // The plugin's context has no window; a route's own limit carries it in its config.
  const routeLimit = (req.routeOptions.config as { rateLimit?: { timeWindow?: number } }).rateLimit;
  return typeof routeLimit?.timeWindow === 'number' ? routeLimit.timeWindow : globalWindowMs;
};

export default fp(
  async function rateLimitPlugin(app: FastifyInstance, opts: RateLimitOptions) {
    const { seams } = opts;
    const stores: RateLimitStore[] = [];
    const storeOpts = {
      clock: opts.clock,
      created: (s: RateLimitStore) => {
        stores.push(s);
      },
    };
    const windowMs = seams.windowMs(opts.windowSeconds);
    // Each request is its own hit in its key's bucket, so that it alone can be refunded.
    const keyOf = (req: FastifyRequest) => hitKey(seams.bucket(req), req.id);
    await app.register(rateLimit, {
      global: true,
      max: seams.limit(opts.max),
      timeWindow: windowMs,
      store: withOptions(seams.stores[opts.algorithm], storeOpts),
      keyGenerator: keyOf,
      allowList: (req) => seams.exempt(req),
      errorResponseBuilder: (req, ctx) =>
        seams.tooManyRequests(
          { max: ctx.max, windowSeconds: Math.round(windowMsOf(req, windowMs) / 1000), ttlMs: ctx.ttl, scope: hasOwnLimit(req) ? 'route' : 'global' },
          req,
        ),
    });
    if (opts.headers === 'global') reportGlobalLimit(app, { seams, windowMs, hasOwnLimit });
    if (!opts.countRefused) {
      // onSend, not onResponse: the hit is taken back before the client can see the answer and send again.
      app.addHook('onSend', async (req, reply) => {
        if (reply.statusCode >= 200 && reply.statusCode < 300) return;
        const key = keyOf(req);
        for (const store of stores) store.refund(key);
      });
    }
  },
  { name: 'rate-limit' },
);
