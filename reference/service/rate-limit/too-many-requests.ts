// The one 429 builder. The limiter throws what this returns; the errors plugin sends `body` as is.
import type { Faults } from '../../faults';

export class RateLimitError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? 'Too Many Requests'));
  }
}

export interface LimitContext {
  max: number;
  windowSeconds: number;
  retryAfterSeconds: number;
}

export function buildTooManyRequests(ctx: LimitContext, faults: Faults): RateLimitError {
  const message = `Rate limit of ${ctx.max} requests per ${ctx.windowSeconds} seconds exceeded, retry in ${ctx.retryAfterSeconds} seconds`;
  if (faults.has('rl-429-body')) return new RateLimitError(429, { code: 429, message: 'Rate limit exceeded' });
  if (faults.has('rl-503')) {
    return new RateLimitError(503, { statusCode: 503, error: 'Service Unavailable', message });
  }
  const attributes = { limit: ctx.max, windowSeconds: ctx.windowSeconds };
  return new RateLimitError(429, {
    statusCode: 429,
    error: 'Too Many Requests',
    message,
    // ind8-err-429-attributes-entries: the attributes turned into entries "to keep their order", which makes them an array of pairs.
    attributes: faults.has('ind8-err-429-attributes-entries') ? Object.entries(attributes) : attributes,
  });
}
