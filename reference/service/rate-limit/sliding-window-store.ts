// Sliding log: a key may make `max` requests in any span of `timeWindow` ms. Rejected requests are
// not logged, so a client that keeps hammering is served again as soon as its oldest hit ages out.
// ttl is the time until that oldest hit ages out (the next free slot), which feeds reset/retry-after.
import { splitKey, type IncrCallback, type RateLimitStore, type StoreClass, type StoreOptions } from './store';

interface Hit {
  at: number;
  id: string;
}

export class SlidingWindowStore implements RateLimitStore {
  private readonly logs = new Map<string, Hit[]>();
  constructor(private readonly opts: StoreOptions) {
    opts.created?.(this);
  }

  incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void {
    const now = this.opts.clock();
    const { bucket, hit } = splitKey(key);
    const log = this.logs.get(bucket) ?? [];
    if (!this.opts.neverReset) while (log.length && log[0].at <= now - timeWindow) log.shift();
    let current: number;
    if (log.length >= max) {
      current = log.length + 1; // over the limit: answer, but do not record
      // ind6-rl-429-extends-window: the refusal is logged too, so it keeps the key blocked a window longer.
      if (this.opts.extendOnReject) log.push({ at: now, id: hit });
    } else {
      log.push({ at: now, id: hit });
      current = log.length;
    }
    this.logs.set(bucket, log);
    const ttl = this.opts.neverReset || !log.length ? timeWindow : log[0].at + timeWindow - now;
    cb(null, { current, ttl: Math.max(1, ttl) });
  }

  refund(key: string): void {
    const { bucket, hit } = splitKey(key);
    const log = this.logs.get(bucket);
    const at = log?.findIndex((h) => h.id === hit) ?? -1;
    if (at >= 0) log!.splice(at, 1);
  }

  child(_routeOptions?: unknown): RateLimitStore {
    return new SlidingWindowStore(this.opts);
  }
}

export const slidingWindowStore = (opts: StoreOptions): StoreClass =>
  class extends SlidingWindowStore {
    constructor() {
      super(opts);
    }
  };
