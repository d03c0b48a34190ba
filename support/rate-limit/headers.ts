/** Rate-limit headers (RL-6): what a response says of the limit, whichever convention it follows. */
import { KEPT_HEADER } from './burst';

export interface LimitHeaders {
  limit?: number;
  remaining?: number;
  /** Seconds from the response until the window resets (reset headers in seconds or epoch time). */
  reset?: number;
  /** Retry-After in seconds (a date becomes seconds from the response). */
  retryAfter?: number;
  /** Names of the rate-limit headers present. */
  names: string[];
  /** Values that are not what their header calls for. */
  problems: string[];
}

const FIRST_INT = /^\s*(-?\d+(?:\.\d+)?)/;

/** Reads X-RateLimit-*, RateLimit-* (drafts 6-7), RateLimit/RateLimit-Policy (draft 8+) and Retry-After. */
export function readLimitHeaders(headers: Record<string, string>, receivedAt = Date.now()): LimitHeaders {
  const h = (name: string) => headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const names = Object.keys(headers).filter((k) => KEPT_HEADER.test(k) && k.toLowerCase() !== 'content-type');
  const problems: string[] = [];
  const structured = h('ratelimit') ?? '';
  const field = (keys: string[], source = structured) => new RegExp(`(?:^|[;,\\s])(?:${keys.join('|')})=(\\d+)`, 'i').exec(source)?.[1];
  const number = (name: string, value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const m = FIRST_INT.exec(value);
    if (!m) problems.push(`${name} "${value}" is not a number`);
    return m ? Number(m[1]) : undefined;
  };
  const pick = (names: string[]) => names.map((n) => [n, h(n)] as const).find(([, v]) => v !== undefined);
  const [limitName, limitValue] = pick(['x-ratelimit-limit', 'ratelimit-limit', 'x-rate-limit-limit']) ?? ['ratelimit', field(['limit', 'l']) ?? field(['q'], h('ratelimit-policy') ?? '')];
  const [remainingName, remainingValue] = pick(['x-ratelimit-remaining', 'ratelimit-remaining', 'x-rate-limit-remaining']) ?? ['ratelimit', field(['remaining', 'r'])];
  const [resetName, resetValue] = pick(['x-ratelimit-reset', 'ratelimit-reset', 'x-rate-limit-reset']) ?? ['ratelimit', field(['reset', 't'])];
  let reset = number(resetName, resetValue);
  // Epoch seconds or milliseconds instead of seconds from now.
  if (reset !== undefined && reset > 1e12) reset = (reset - receivedAt) / 1000;
  else if (reset !== undefined && reset > 1e9) reset = reset - receivedAt / 1000;
  let retryAfter: number | undefined;
  const ra = h('retry-after');
  if (ra !== undefined) {
    if (/^\s*-?\d+(\.\d+)?\s*$/.test(ra)) retryAfter = Number(ra);
    else if (!Number.isNaN(Date.parse(ra))) retryAfter = (Date.parse(ra) - receivedAt) / 1000;
    else problems.push(`retry-after "${ra}" is neither a number of seconds nor an HTTP date`);
  }
  return { limit: number(limitName, limitValue), remaining: number(remainingName, remainingValue), reset, retryAfter, names, problems };
}
