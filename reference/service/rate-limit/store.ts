// The two-method store interface of @fastify/rate-limit (incr, child), typed once for our stores.
export type Clock = () => number;
export interface StoreResult { current: number; ttl: number }
export type IncrCallback = (err: Error | null, res: StoreResult) => void;

export interface RateLimitStore {
  incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): RateLimitStore;
}

/** The plugin does `new Store(globalParams)`; this binds our own options (clock, faults) into such a class. */
export type StoreClass = new (params?: unknown) => RateLimitStore;

export interface StoreOptions { clock: Clock; neverReset: boolean }
