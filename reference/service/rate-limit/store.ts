// The store interface of @fastify/rate-limit (incr, child), typed once for our stores, plus `refund`,
// which takes a counted hit back (RATE_LIMIT_COUNT_REFUSED=off: a refused request does not count).
export type Clock = () => number;
export interface StoreResult {
  current: number;
  ttl: number;
}
export type IncrCallback = (err: Error | null, res: StoreResult) => void;

export interface RateLimitStore {
  incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): RateLimitStore;
  /** Takes back the hit of this key if it was counted and still is; otherwise nothing. */
  refund(key: string): void;
}

/** The plugin does `new Store(globalParams)`; this binds our own options (clock, faults) into such a class. */
export type StoreClass = new (params?: unknown) => RateLimitStore;

export interface StoreOptions {
  clock: Clock;
  neverReset: boolean;
  /** ind6-rl-429-extends-window: a refused request restarts its key's window (the old end is still announced). */
  extendOnReject?: boolean;
  /** ind7-rl-reset-counts-twice: the request that opens a new window (after the first) counts twice (fixed window, global store only). */
  resetCountsTwice?: boolean;
  /** rl-later-limit: the global limit is off by this much in every window of a key after its first (fixed window, global store only). */
  laterLimitDelta?: number;
  /** ind7-rl-counter-lost-update: the count is read, then written back later, so concurrent hits are lost (fixed window, global store only). */
  lostUpdates?: boolean;
  /** Told of every store the plugin makes (the global one and each route's child), so refunds reach them. */
  created?: (store: RateLimitStore) => void;
}

// The plugin hands the store nothing but the key, so the key names the hit too: "<bucket>\n<hit id>".
// A header value cannot hold a newline, so the bucket (derived from one) never does.
const SEPARATOR = '\n';
export const hitKey = (bucket: string, hitId: string): string => `${bucket}${SEPARATOR}${hitId}`;

let anonymousHits = 0;
/** The bucket a key counts in, and the id of this hit (made up when the key names none, as in store tests). */
export function splitKey(key: string): { bucket: string; hit: string } {
  const at = key.indexOf(SEPARATOR);
  return at < 0 ? { bucket: key, hit: `anonymous-${++anonymousHits}` } : { bucket: key.slice(0, at), hit: key.slice(at + 1) };
}
