// Fixed window: one window per key, starting at its first hit. Written here (not the plugin's
// LocalStore) so tests can drive it with a fake clock, rl-never-reset can bend it, and hits can be
// refunded. A request over the limit is answered but not recorded: a 429 never counts.
import { splitKey, type IncrCallback, type RateLimitStore, type StoreClass, type StoreOptions } from './store';

/** ind7-rl-counter-lost-update: the round trip between reading the count and writing it back. */
const LOST_UPDATE_DELAY_MS = 2;

export class FixedWindowStore implements RateLimitStore {
  private readonly windows = new Map<string, { start: number; hits: Set<string>; later?: boolean }>();
  constructor(private readonly opts: StoreOptions) {
    opts.created?.(this);
  }

  incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void {
    const now = this.opts.clock();
    const { bucket, hit } = splitKey(key);
    let w = this.windows.get(bucket);
    const expired = !!w && !this.opts.neverReset && now - w.start >= timeWindow;
    if (!w || expired) this.windows.set(bucket, (w = { start: now, hits: new Set(), later: expired }));
    // ind7-rl-reset-counts-twice: the reset path opens the window at a count of 1 for this request, which the path below counts again.
    if (expired && this.opts.resetCountsTwice) w.hits.add(`${hit} (reset)`);
    // rl-later-limit: a window after the key's first one holds another limit (the count reported is shifted to match).
    const shift = w.later ? (this.opts.laterLimitDelta ?? 0) : 0;
    const over = w.hits.size >= max + shift;
    // ind7-rl-counter-lost-update: the count as read now is written back (with this hit) only after the store's round trip.
    const deferred = !over && !!this.opts.lostUpdates;
    if (deferred) {
      const read = new Set(w.hits);
      const win = w;
      setTimeout(() => {
        win.hits = new Set([...read, hit]);
      }, LOST_UPDATE_DELAY_MS);
    } else if (!over) w.hits.add(hit);
    // Under rl-never-reset the window is still announced as ending, which is the lie a client sees.
    const ttl = Math.max(1, this.opts.neverReset ? timeWindow : w.start + timeWindow - now);
    // ind6-rl-429-extends-window: the refusal pushes the window's start to now, after the ttl was read.
    if (over && this.opts.extendOnReject) w.start = now;
    cb(null, { current: (over || deferred ? w.hits.size + 1 : w.hits.size) - shift, ttl });
  }

  /** Only the current window holds hits: one refunded after its window ended has nothing left to take back. */
  refund(key: string): void {
    const { bucket, hit } = splitKey(key);
    this.windows.get(bucket)?.hits.delete(hit);
  }

  child(_routeOptions?: unknown): RateLimitStore {
    // The ind7 store faults are of the global counter: a route's own limit is counted in memory.
    return new FixedWindowStore({ ...this.opts, resetCountsTwice: false, lostUpdates: false, laterLimitDelta: 0 });
  }
}

export const fixedWindowStore = (opts: StoreOptions): StoreClass =>
  class extends FixedWindowStore {
    constructor() {
      super(opts);
    }
  };
