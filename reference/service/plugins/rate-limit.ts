// Rate limiting through @fastify/rate-limit: keyed by API key, our own stores, our 429 builder.
// Registered before the routes so its onRoute hook sees them; it runs on onRequest, i.e. before auth
// (which runs on preParsing), so unauthenticated floods are limited too.
import type { RateLimitSeams } from '../rate-limit/seams';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { BucketPart } from '../../fault-kinds';
import type { Faults } from '../../faults';
import { placeOf } from '../place';
import { fixedWindowStore } from '../rate-limit/fixed-window-store';
import { reportGlobalLimit } from '../rate-limit/global-headers';
import { lieInHeaders } from '../rate-limit/lying-headers';
import { slidingWindowStore } from '../rate-limit/sliding-window-store';
import { hitKey, type Clock, type RateLimitStore } from '../rate-limit/store';
import { buildTooManyRequests, RateLimitError } from '../rate-limit/too-many-requests';

export interface RateLimitOptions {
  faults: Faults;
  seams: RateLimitSeams;
  max: number;
  windowSeconds: number;
  algorithm: 'fixed' | 'sliding';
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

/** The token of the Authorization header whatever its scheme; the client IP when there is none. */
export function rateLimitKey(req: FastifyRequest, perIp: boolean): string {
  const auth = req.headers.authorization;
  if (perIp || typeof auth !== 'string' || !auth.trim()) return `ip:${req.ip}`;
  const parts = auth.trim().split(/\s+/);
  return `key:${parts[parts.length - 1]}`;
}

export function globalMax(opts: RateLimitOptions): number {
  if (opts.faults.has('rl-500')) return 500;
  if (opts.faults.has('rl-700')) return 700;
  return Math.max(1, opts.max + opts.faults.rateLimitDelta());
}

/** A route with a limit of its own (the runtime list) keeps it whatever happens to the global one. */
/** rl-bucket's part of a request. */
const partOf = (part: BucketPart, req: FastifyRequest): string =>
  part === 'url' ? req.url : part === 'path' ? req.url.split('?')[0] : String(req.headers.authorization ?? '');

/** ind8-rl-bucket-raw-authorization: the Authorization header as sent, scheme and spacing included. */
const rawAuthorizationKey = (req: FastifyRequest): string | undefined => {
  const auth = req.headers.authorization;
  return typeof auth === 'string' && auth.trim() ? `key:${auth}` : undefined;
};

/** ind8-rl-ban-403-after-refusals: refusals a bucket may get in one window before it is banned for the rest of it. */
const REFUSALS_BEFORE_BAN = 3;

const hasOwnLimit = (req: FastifyRequest) => typeof (req.routeOptions.config as { rateLimit?: unknown }).rateLimit === 'object';

export default fp(
  async function rateLimitPlugin(app: FastifyInstance, opts: RateLimitOptions) {
    const { faults } = opts;
    if (faults.has('rl-none')) return;
    const stores: RateLimitStore[] = [];
    const storeOpts = {
      clock: opts.clock,
      neverReset: faults.has('rl-never-reset'),
      extendOnReject: faults.has('ind6-rl-429-extends-window'),
      resetCountsTwice: faults.has('ind7-rl-reset-counts-twice'),
      lostUpdates: faults.has('ind7-rl-counter-lost-update'),
      laterLimitDelta: faults.laterLimitDelta(),
      created: (s: RateLimitStore) => {
        stores.push(s);
      },
    };
    // ind-rl-window-ms: the window in seconds handed to an option that counts milliseconds.
    const windowMs = faults.has('ind-rl-window-ms') ? opts.windowSeconds : opts.windowSeconds * 1000;
    // Each request is its own hit in its key's bucket, so that it alone can be refunded.
    // ind6-rl-bucket-per-url: the bucket named by key and URL, as a cache key would be; rl-bucket the same by a part of the request.
    const parts = faults.bucketParts();
    const partsOf = (req: FastifyRequest) =>
      [...(faults.has('ind6-rl-bucket-per-url') ? [req.url] : []), ...parts.map((p) => partOf(p, req))].map((x) => ` ${x}`).join('');
    // ind8-rl-bucket-raw-authorization: the bucket named by the header value as sent, not by the key it carries.
    const keyPart = (req: FastifyRequest) =>
      (faults.has('ind8-rl-bucket-raw-authorization') && !faults.has('rl-per-ip') ? rawAuthorizationKey(req) : undefined) ??
      rateLimitKey(req, faults.has('rl-per-ip'));
    const bucketOf = (req: FastifyRequest) => keyPart(req) + partsOf(req);
    /** ind8-rl-ban-403-after-refusals: each bucket's refusals in its current window. */
    const refusals = new Map<string, { count: number; until: number }>();
    const keyOf = (req: FastifyRequest) => hitKey(bucketOf(req), req.id);
    await app.register(rateLimit, {
      global: true,
      max: globalMax(opts),
      timeWindow: windowMs,
      store: opts.algorithm === 'sliding' ? slidingWindowStore(storeOpts) : fixedWindowStore(storeOpts),
      keyGenerator: keyOf,
      allowList: (req) => !hasOwnLimit(req) && faults.rateLimitExempt(placeOf(req)),
      errorResponseBuilder: (req, ctx) => {
        // The plugin's context has no window; a route's own limit carries it in its config.
        const routeLimit = (req.routeOptions.config as { rateLimit?: { timeWindow?: number } }).rateLimit;
        const routeWindowMs = typeof routeLimit?.timeWindow === 'number' ? routeLimit.timeWindow : windowMs;
        const err = buildTooManyRequests(
          { max: ctx.max, windowSeconds: Math.round(routeWindowMs / 1000), retryAfterSeconds: Math.ceil(ctx.ttl / 1000) },
          faults,
        );
        // ind8-rl-ban-403-after-refusals: a client that keeps going after its third 429 in a window is banned (403) until the window ends.
        if (faults.has('ind8-rl-ban-403-after-refusals')) {
          const now = opts.clock();
          const seen = refusals.get(bucketOf(req));
          const mine = seen && now < seen.until ? seen : { count: 0, until: now + ctx.ttl };
          refusals.set(bucketOf(req), { ...mine, count: mine.count + 1 });
          if (mine.count >= REFUSALS_BEFORE_BAN)
            return new RateLimitError(403, {
              statusCode: 403,
              error: 'Forbidden',
              message: 'Too many refused requests: banned until the rate-limit window ends',
            });
        }
        // ind-err-custom-429-wording: a route with its own limit words its 429 by hand.
        if (faults.has('ind-err-custom-429-wording') && hasOwnLimit(req)) err.body.error = 'Too many requests';
        if (faults.has('rl-custom-429-body') && hasOwnLimit(req)) delete err.body.statusCode;
        // ind7-auth-429-attributes-key: the limiter's bucket reported "for support"; the bucket is named by the key.
        if (faults.has('ind7-auth-429-attributes-key')) err.body.attributes = { ...(err.body.attributes as object), key: bucketOf(req) };
        return err;
      },
    });
    // ind9-rl-checks-counted-twice: the limiter registered a second time in the checks routes' scope, on the same store: each request there is a second hit.
    if (faults.has('ind9-rl-checks-counted-twice')) {
      app.addHook('onRequest', async (req) => {
        const place = placeOf(req);
        if ((place !== 'check-read' && place !== 'check-update') || hasOwnLimit(req) || !stores[0]) return;
        await new Promise<void>((resolve) => stores[0].incr(hitKey(bucketOf(req), `${req.id} (checks scope)`), () => resolve(), windowMs, globalMax(opts)));
      });
    }
    if (opts.headers === 'global') reportGlobalLimit(app, { faults, windowMs, hasOwnLimit });
    if (!opts.countRefused) {
      // onSend, not onResponse: the hit is taken back before the client can see the answer and send again.
      app.addHook('onSend', async (req, reply) => {
        if (reply.statusCode >= 200 && reply.statusCode < 300) return;
        const key = keyOf(req);
        for (const store of stores) store.refund(key);
      });
    }
    // ind-rl-retry-after-ms: Retry-After rewritten from the store's ttl, which is in milliseconds.
    if (faults.has('ind-rl-retry-after-ms')) {
      app.addHook('onSend', async (_req, reply) => {
        const after = reply.getHeader('retry-after');
        if (reply.statusCode === 429 && after !== undefined) reply.header('retry-after', String(Number(after) * 1000));
      });
    }
    // ind7-rl-retry-after-epoch-date: the delta in seconds handed to a formatter that expects an epoch time.
    if (faults.has('ind7-rl-retry-after-epoch-date')) {
      app.addHook('onSend', async (_req, reply) => {
        const after = reply.getHeader('retry-after');
        if (reply.statusCode === 429 && after !== undefined) reply.header('retry-after', new Date(Number(after) * 1000).toUTCString());
      });
    }
    // ind8-rl-429-headers-next-window: the refusal's headers written from the counter as the next window will start it.
    if (faults.has('ind8-rl-429-headers-next-window')) {
      app.addHook('onSend', async (req, reply) => {
        const limit = reply.getHeader('x-ratelimit-limit');
        if (reply.statusCode !== 429 || limit === undefined) return;
        const routeLimit = (req.routeOptions.config as { rateLimit?: { timeWindow?: number } }).rateLimit;
        const window = typeof routeLimit?.timeWindow === 'number' ? routeLimit.timeWindow : windowMs;
        reply.header('x-ratelimit-remaining', String(limit)).header('x-ratelimit-reset', String(Math.ceil(window / 1000)));
      });
    }
    // ind9-rl-reset-wall-clock-minute: the reset written by a helper that assumes epoch-aligned windows (the end of the current wall-clock window).
    if (faults.has('ind9-rl-reset-wall-clock-minute')) {
      app.addHook('onSend', async (req, reply) => {
        if (reply.getHeader('x-ratelimit-reset') === undefined || hasOwnLimit(req)) return;
        const windowS = Math.round(windowMs / 1000);
        reply.header('x-ratelimit-reset', String(windowS - (Math.floor(opts.clock() / 1000) % windowS)));
      });
    }
    const lies = faults.headerLies();
    if (lies.length)
      app.addHook('onSend', async (_req, reply) => {
        lieInHeaders(reply, lies);
      });
  },
  { name: 'rate-limit' },
);
