// RATE_LIMIT_HEADERS=global: a route with a limit of its own (the runtime list) is counted in the key's
// global window too, and its x-ratelimit-* headers describe that global window (its limit, remaining and
// reset), while the route still refuses after its own, stricter limit. Many real services have several
// limits and report one; the document says nothing of headers, so this is as correct as `route`.
// Retry-After on a 429 stays the refusing limit's: when the route (or the key) is served again.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitSeams } from './seams';

type GlobalCount = { max: number; remaining: number; ttlInSeconds: number };
const COUNT = Symbol('global rate-limit count');
type Counted = FastifyRequest & { [COUNT]?: GlobalCount };

const setLimitHeaders = (reply: FastifyReply, c: GlobalCount) =>
  reply.header('x-ratelimit-limit', c.max).header('x-ratelimit-remaining', c.remaining).header('x-ratelimit-reset', c.ttlInSeconds);

/**
 * Installs the global count on own-limit routes. Call after @fastify/rate-limit is registered (its
 * `createRateLimit` with no options is the global limiter, on the global store).
 */
export function reportGlobalLimit(
  app: FastifyInstance,
  opts: { seams: RateLimitSeams; windowMs: number; hasOwnLimit: (req: FastifyRequest) => boolean },
): void {
  const countGlobally = app.createRateLimit();
  // An app-level onRequest runs before the route's own limiter (a route-level hook): a key over the
  // global limit is refused here, on this route as on every other.
  app.addHook('onRequest', async (req, reply) => {
    if (!opts.hasOwnLimit(req)) return;
    const r = await countGlobally(req);
    if (r.isAllowed) return;
    const count = { max: r.max, remaining: r.remaining, ttlInSeconds: r.ttlInSeconds };
    (req as Counted)[COUNT] = count;
    if (!r.isExceeded) return;
    reply.header('retry-after', r.ttlInSeconds);
    throw opts.seams.tooManyRequests({ max: r.max, windowSeconds: Math.round(opts.windowMs / 1000), ttlMs: r.ttl, scope: 'global' }, req);
  });
  // Served or refused by the route's own limit alike: a refusal there leaves the global window with room, and the headers say so.
  app.addHook('onSend', async (req, reply) => {
    const count = (req as Counted)[COUNT];
    if (count) setLimitHeaders(reply, count);
  });
}
