// Sliding log: a key may make `max` requests in any span of `timeWindow` ms. Rejected requests are
// not logged, so a client that keeps hammering is served again as soon as its oldest hit ages out.
// ttl is the time until that oldest hit ages out (the next free slot), which feeds reset/retry-after.
import type { IncrCallback, RateLimitStore, StoreClass, StoreOptions } from './store';

export class SlidingWindowStore implements RateLimitStore {
  private readonly logs = new Map<string, number[]>();
  constructor(private readonly opts: StoreOptions) {}

  incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void {
    const now = this.opts.clock();
    const log = this.logs.get(key) ?? [];
    if (!this.opts.neverReset) while (log.length && log[0] <= now - timeWindow) log.shift();
    let current: number;
    if (log.length >= max) current = log.length + 1; // over the limit: answer, but do not record
    else { log.push(now); current = log.length; }
    this.logs.set(key, log);
    const ttl = this.opts.neverReset || !log.length ? timeWindow : log[0] + timeWindow - now;
    cb(null, { current, ttl: Math.max(1, ttl) });
  }

  child(_routeOptions?: unknown): RateLimitStore {
    return new SlidingWindowStore(this.opts);
  }
}

export const slidingWindowStore = (opts: StoreOptions): StoreClass =>
  class extends SlidingWindowStore { constructor() { super(opts); } };
