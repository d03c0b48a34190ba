// Fixed window: one window per key, starting at its first hit. Written here (not the plugin's
// LocalStore) so tests can drive it with a fake clock and hits can be refunded. A request over the
// limit is answered but not recorded: a 429 never counts. Its windows are protected, for a store
// built on it (the plugin builds the class seams.stores.fixed names).
import { splitKey, type IncrCallback, type RateLimitStore, type StoreConstructor, type StoreOptions } from './store';

export interface FixedWindow {
  start: number;
  hits: Set<string>;
}

export class FixedWindowStore implements RateLimitStore {
  protected readonly windows = new Map<string, FixedWindow>();
  constructor(protected readonly opts: StoreOptions) {
    opts.created?.(this);
  }

  incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void {
    const now = this.opts.clock();
    const { bucket, hit } = splitKey(key);
    let w = this.windows.get(bucket);
    if (!w || now - w.start >= timeWindow) this.windows.set(bucket, (w = { start: now, hits: new Set() }));
    const over = w.hits.size >= max;
    if (!over) w.hits.add(hit);
    cb(null, { current: over ? w.hits.size + 1 : w.hits.size, ttl: Math.max(1, w.start + timeWindow - now) });
  }

  /** Only the current window holds hits: one refunded after its window ended has nothing left to take back. */
  refund(key: string): void {
    const { bucket, hit } = splitKey(key);
    this.windows.get(bucket)?.hits.delete(hit);
  }

  /** A route's own limit, counted apart: a store of the same class. */
  child(_routeOptions?: unknown): RateLimitStore {
    return new (this.constructor as StoreConstructor)(this.opts);
  }
}
