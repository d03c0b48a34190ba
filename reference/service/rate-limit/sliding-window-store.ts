// Sliding log: a key may make `max` requests in any span of `timeWindow` ms. Rejected requests are
// not logged, so a client that keeps hammering is served again as soon as its oldest hit ages out.
// ttl is the time until that oldest hit ages out (the next free slot), which feeds reset/retry-after.
// Its logs are protected, for a store built on it (the plugin builds the class seams.stores.sliding names).
import { splitKey, type IncrCallback, type RateLimitStore, type StoreConstructor, type StoreOptions } from './store';

export interface Hit {
  at: number;
  id: string;
}

export class SlidingWindowStore implements RateLimitStore {
  protected readonly logs = new Map<string, Hit[]>();
  constructor(protected readonly opts: StoreOptions) {
    opts.created?.(this);
  }

  incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void {
    const now = this.opts.clock();
    const { bucket, hit } = splitKey(key);
    const log = this.logs.get(bucket) ?? [];
    while (log.length && log[0].at <= now - timeWindow) log.shift();
    let current: number;
    if (log.length >= max) {
      current = log.length + 1; // over the limit: answer, but do not record
    } else {
      log.push({ at: now, id: hit });
      current = log.length;
    }
    this.logs.set(bucket, log);
    const ttl = log.length ? log[0].at + timeWindow - now : timeWindow;
    cb(null, { current, ttl: Math.max(1, ttl) });
  }

  refund(key: string): void {
    const { bucket, hit } = splitKey(key);
    const log = this.logs.get(bucket);
    const at = log?.findIndex((h) => h.id === hit) ?? -1;
    if (at >= 0) log!.splice(at, 1);
  }

  /** A route's own limit, counted apart: a store of the same class. */
  child(_routeOptions?: unknown): RateLimitStore {
    return new (this.constructor as StoreConstructor)(this.opts);
  }
}
