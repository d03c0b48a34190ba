// The one 429 builder. The limiter throws what this returns; the errors plugin sends `body` as is.
export class RateLimitError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? 'Too Many Requests'));
  }
}

/** A request over a limit: the limit, its window, and how long until the window has room again. */
export interface Refusal {
  max: number;
  windowSeconds: number;
  ttlMs: number;
  /** Which limit refused: a route's own (the runtime list's), or the key's global one. */
  scope: 'route' | 'global';
}

/** The 429 of the document: its error, a message that says when to retry, and the limit as attributes. */
export function buildTooManyRequests(refusal: Refusal): RateLimitError {
  const retryAfterSeconds = Math.ceil(refusal.ttlMs / 1000);
  const message = `Rate limit of ${refusal.max} requests per ${refusal.windowSeconds} seconds exceeded, retry in ${retryAfterSeconds} seconds`;
  return new RateLimitError(429, {
    statusCode: 429,
    error: 'Too Many Requests',
    message,
    attributes: { limit: refusal.max, windowSeconds: refusal.windowSeconds },
  });
}
