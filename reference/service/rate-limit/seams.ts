// The seams of this part of the service: its rules as data and functions, read where they apply, so a
// plugin from outside (REFERENCE_PLUGINS) may change one before the service's own plugins are registered.
// The limiter reads each when it is registered (the limit, the window, the store), or per request.
import type { FastifyRequest } from 'fastify';
import { FixedWindowStore } from './fixed-window-store';
import { SlidingWindowStore } from './sliding-window-store';
import { buildTooManyRequests, type RateLimitError, type Refusal } from './too-many-requests';

export type Algorithm = 'fixed' | 'sliding';

export interface RateLimitSeams {
  /** The global limit of requests per key and window, from the one configured (RATE_LIMIT_MAX). */
  limit: (configured: number) => number;
  /** The global window in milliseconds, from the seconds configured (RATE_LIMIT_WINDOW_S). */
  windowMs: (seconds: number) => number;
  /** Whether a request is left out of the limits: none is, every request counts. */
  exempt: (req: FastifyRequest) => boolean;
  /** The name of the bucket a request counts in: its API key, or the client's IP when it sends none. */
  bucket: (req: FastifyRequest) => string;
  /** The store of each algorithm (RATE_LIMIT_ALGORITHM): the class the limiter builds, the global store first, then each route's child. */
  stores: { fixed: typeof FixedWindowStore; sliding: typeof SlidingWindowStore };
  /** The answer to a request over a limit. */
  tooManyRequests: (refusal: Refusal, req: FastifyRequest) => RateLimitError;
}

/** The token of the Authorization header whatever its scheme; the client IP when there is none. */
export function rateLimitKey(req: FastifyRequest): string {
  const auth = req.headers.authorization;
  if (typeof auth !== 'string' || !auth.trim()) return `ip:${req.ip}`;
  const parts = auth.trim().split(/\s+/);
  return `key:${parts[parts.length - 1]}`;
}

export const rateLimitSeams = (): RateLimitSeams => ({
  limit: (configured) => configured,
  windowMs: (seconds) => seconds * 1000,
  exempt: () => false,
  bucket: rateLimitKey,
  stores: { fixed: FixedWindowStore, sliding: SlidingWindowStore },
  tooManyRequests: (refusal) => buildTooManyRequests(refusal),
});
