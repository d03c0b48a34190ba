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

export interface StoreOptions {
  /** The time the windows are counted in (a fake clock in tests). */
  clock: Clock;
  /** Told of every store the plugin makes (the global one and each route's child), so refunds reach them. */
  created?: (store: RateLimitStore) => void;
}

/** A store as the service builds it: from its options. */
export type StoreConstructor = new (opts: StoreOptions) => RateLimitStore;

/** The plugin does `new Store(globalParams)`: a class of no options of its own. */
export type StoreClass = new (params?: unknown) => RateLimitStore;

/** The plugin's class of a store of ours: these options bound in. */
export const withOptions = (Store: StoreConstructor, opts: StoreOptions): StoreClass =>
  class extends Store {
    constructor() {
      super(opts);
    }
  };

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
