// Fixed window: one window per key, starting at its first hit. Written here (not the plugin's
// LocalStore) so tests can drive it with a fake clock and rl-never-reset can bend it.
import type { IncrCallback, RateLimitStore, StoreClass, StoreOptions } from './store';

export class FixedWindowStore implements RateLimitStore {
  private readonly windows = new Map<string, { start: number; count: number }>();
  constructor(private readonly opts: StoreOptions) {}

  incr(key: string, cb: IncrCallback, timeWindow: number): void {
    const now = this.opts.clock();
    let w = this.windows.get(key);
    const expired = !!w && !this.opts.neverReset && now - w.start >= timeWindow;
    if (!w || expired) this.windows.set(key, (w = { start: now, count: 0 }));
    w.count += 1;
    // Under rl-never-reset the window is still announced as ending, which is the lie a client sees.
    const ttl = Math.max(1, this.opts.neverReset ? timeWindow : w.start + timeWindow - now);
    cb(null, { current: w.count, ttl });
  }

  child(_routeOptions?: unknown): RateLimitStore {
    return new FixedWindowStore(this.opts);
  }
}

export const fixedWindowStore = (opts: StoreOptions): StoreClass =>
  class extends FixedWindowStore { constructor() { super(opts); } };
