/**
 * Rate-limit faults applied from outside the service, through the seams of its limiter
 * (reference/service/rate-limit/seams.ts): the global limit and window as numbers, the requests left out,
 * the bucket a request counts in, the store class the limiter builds, and the 429 it answers. What a
 * client reads in the limit headers is bent by an onSend step that runs after the service's own (a
 * route's hook, added as each route is), as the headers leave. Each comment says how the mistake came about.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FaultKind, HeaderMutation, Place } from '../catalogue/fault-kinds';
import { placeOf } from '../../../reference/service/place';
import { hasOwnLimit, windowMsOf } from '../../../reference/service/plugins/rate-limit';
import type { FixedWindowStore } from '../../../reference/service/rate-limit/fixed-window-store';
import type { RateLimitSeams } from '../../../reference/service/rate-limit/seams';
import type { SlidingWindowStore } from '../../../reference/service/rate-limit/sliding-window-store';
import { hitKey, splitKey, type Clock, type IncrCallback, type StoreOptions } from '../../../reference/service/rate-limit/store';
import { RateLimitError, type Refusal } from '../../../reference/service/rate-limit/too-many-requests';
import type { Seams } from '../../../reference/service/seams';
import type { ClauseId } from '../../../support/document/clauses';
import type { KindFault, NamedFault, OutsideFault, Seam } from './seams';
import { TEST_FILES } from '../../../support/run/test-files';

type Fixed = typeof FixedWindowStore;
type Sliding = typeof SlidingWindowStore;
type TooManyRequests = RateLimitSeams['tooManyRequests'];

/** One seam of the limiter replaced by a function of what it was. */
const bend =
  <K extends keyof RateLimitSeams>(key: K, by: (orig: RateLimitSeams[K]) => RateLimitSeams[K]): Seam =>
  (_app, seams) => {
    seams.rateLimit[key] = by(seams.rateLimit[key]);
  };

/** The stores of both algorithms, each built on what it was. */
const bendStores =
  (fixed: (Store: Fixed) => Fixed, sliding: (Store: Sliding) => Sliding): Seam =>
  (_app, seams) => {
    seams.rateLimit.stores = { fixed: fixed(seams.rateLimit.stores.fixed), sliding: sliding(seams.rateLimit.stores.sliding) };
  };

/**
 * The same store built on either algorithm's: a subclass that reads only what both have (incr, child,
 * refund and the options), typed on the fixed one.
 */
const bendEither = (build: (Store: Fixed) => Fixed): Seam => bendStores(build, build as unknown as (Store: Sliding) => Sliding);

/** The limiter's clock, as its stores are given it (known once the limiter is registered, before any request). */
function limiterClock(app: FastifyInstance, seams: Seams): Clock {
  let clock: Clock = Date.now;
  bendEither(
    (Store) =>
      class extends Store {
        constructor(opts: StoreOptions) {
          super(opts);
          clock = opts.clock;
        }
      },
  )(app, seams);
  return () => clock();
}

/** The global window in milliseconds, as the limiter reads it from its seam (known once it is registered). */
function limiterWindow(seams: Seams): () => number {
  let windowMs = 0;
  const orig = seams.rateLimit.windowMs;
  seams.rateLimit.windowMs = (seconds) => (windowMs = orig(seconds));
  return () => windowMs;
}

type OnSend = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
/**
 * A step of every route's onSend, after the service's own: a route's hooks run after the app's, so this
 * reads the limit headers as the client will (those of RATE_LIMIT_HEADERS=global included). Added once
 * per route (the HEAD route fastify makes of a GET starts from the GET's hooks).
 */
const lastOnSend =
  (step: OnSend): Seam =>
  (app) => {
    app.addHook('onRoute', (route) => {
      const hooks = [route.onSend ?? []].flat() as unknown[];
      if (!hooks.includes(step)) route.onSend = [...hooks, step] as typeof route.onSend;
    });
  };

/** A 429 answered by the limiter's own hook (the route's or the global one), not the global count of a route with a limit of its own (RATE_LIMIT_HEADERS=global). */
const byLimiterHook = (refusal: Refusal, req: FastifyRequest) => refusal.scope === 'route' || !hasOwnLimit(req);

/** A refusal bent after it was built, on the limiter's own hook or on the route's own limit. */
const bentRefusal = (when: (refusal: Refusal, req: FastifyRequest) => boolean, edit: (body: Record<string, unknown>, req: FastifyRequest) => void) =>
  bend('tooManyRequests', (orig): TooManyRequests => (refusal, req) => {
    const err = orig(refusal, req);
    if (when(refusal, req)) edit(err.body, req);
    return err;
  });

/** A kind's record, its rows typed by its kind (which an array of named and kind records cannot infer). */
const kindFault = <K extends FaultKind['kind']>(f: { kind: K; clauses: ClauseId[]; apply: (rows: Array<Extract<FaultKind, { kind: K }>>) => Seam }) =>
  f as unknown as KindFault;

const covers = (place: Place, req: FastifyRequest) => place === 'any' || place === placeOf(req);

// ---------------------------------------------------------------------------------------------------
// The limit, the window, the requests it applies to.

const LIMIT: OutsideFault[] = [
  kindFault({
    kind: 'rl-limit',
    clauses: ['RL-1', 'RL-2'],
    apply: (rows) => bend('limit', (orig) => (configured) => Math.max(1, orig(configured) + rows.reduce((sum, r) => sum + r.delta, 0))),
  }),
  // A limit written as a number of its own where the configured one should be read.
  {
    name: 'rl-700',
    // 100 more than the limit is seen in two fresh windows before it counts as the limit: a short window.
    what: 'global limit is 700 instead of RATE_LIMIT_MAX',
    // Above the documented limit, which the run keeps (RATE_LIMIT_MAX) so that 700 is too high by the hundred the comment above counts on.
    env: { RATE_LIMIT_WINDOW_S: '5', RATE_LIMIT_MAX: '600' },
    clauses: ['RL-2'],
    reach: ['*#limit'],
    apply: bend('limit', () => () => 700),
  },
  // Below the documented limit, which the run keeps: too low (RL-1), where below a smaller configured one it would be too high.
  {
    name: 'rl-500',
    what: 'global limit is 500 instead of RATE_LIMIT_MAX',
    env: { RATE_LIMIT_MAX: '600' },
    clauses: ['RL-1'],
    reach: ['*#limit'],
    apply: bend('limit', () => () => 500),
  },
  // The window in seconds handed to an option that counts milliseconds.
  {
    name: 'ind-rl-window-ms',
    what: 'global window taken as milliseconds (60 ms instead of 60 s)',
    list: 'independent',
    clauses: ['RL-2'],
    apply: bend('windowMs', () => (seconds) => seconds),
  },
  // The limiter left out of the places named (a route's own limit is kept).
  kindFault({
    kind: 'rl-exempt',
    clauses: ['RL-2'],
    apply: (rows) => bend('exempt', (orig) => (req) => orig(req) || (!hasOwnLimit(req) && rows.some((r) => covers(r.place, req)))),
  }),
  // No limiter at all: every request left out, a route's own limit too.
  {
    name: 'rl-none',
    // No limiter at all: the global burst and the custom route both run free.
    what: 'no rate limit at all',
    clauses: ['RL-2', 'RL-4'],
    reach: ['*#limit'],
    apply: bend('exempt', () => () => true),
  },
];

// ---------------------------------------------------------------------------------------------------
// The bucket a request counts in. Applied in this order, each on the name before it: the key part, then
// what joins it.

/** ind8-rl-bucket-raw-authorization: the Authorization header as sent, scheme and spacing included. */
const rawAuthorization = (req: FastifyRequest): string | undefined => {
  const auth = req.headers.authorization;
  return typeof auth === 'string' && auth.trim() ? `key:${auth}` : undefined;
};

const partOf = {
  url: (req: FastifyRequest) => req.url,
  path: (req: FastifyRequest) => req.url.split('?')[0],
  authorization: (req: FastifyRequest) => String(req.headers.authorization ?? ''),
};

const BUCKET: OutsideFault[] = [
  // The bucket named by the header value as sent, not by the key it carries.
  {
    name: 'ind8-rl-bucket-raw-authorization',
    what: 'the limiter counts by the raw Authorization value: "Bearer k", "bearer k" and "Bearer  k" are three budgets of one key',
    list: 'independent-8',
    clauses: ['RL-2'],
    apply: bend('bucket', (orig) => (req) => rawAuthorization(req) ?? orig(req)),
  },
  // Counted per client address: the document does not say per key, so this is a note, not a failure
  // (RATE_LIMIT_SETTINGS in selftest/faults/generated/rate-limit.ts); it has no expectation.
  { name: 'rl-per-ip', what: 'limit counted per IP, so all keys share one budget', clauses: [], apply: bend('bucket', () => (req) => `ip:${req.ip}`) },
  // The bucket named by key and URL, as a cache key would be.
  {
    name: 'ind6-rl-bucket-per-url',
    what: 'the global limit is counted per key and URL: 600 requests per path, not per key',
    list: 'independent-6',
    clauses: ['RL-2'],
    apply: bend('bucket', (orig) => (req) => `${orig(req)} ${req.url}`),
  },
  // rl-bucket: a part of the request joins the key in the bucket's name.
  kindFault({
    kind: 'rl-bucket',
    clauses: ['RL-2'],
    apply: (rows) => bend('bucket', (orig) => (req) => orig(req) + rows.map((r) => ` ${partOf[r.part](req)}`).join('')),
  }),
];

// ---------------------------------------------------------------------------------------------------
// The stores: each mistake is a store built on the service's (its windows and logs are protected).

/** ind7-rl-counter-lost-update: the round trip between reading the count and writing it back. */
const LOST_UPDATE_DELAY_MS = 2;

/** A fixed-window store of the global counter only: a route's own limit is counted by the store it was built on. */
const globalOnly = (Base: Fixed, Bent: Fixed): Fixed =>
  class extends Bent {
    override child(): FixedWindowStore {
      return new Base(this.opts);
    }
  };

/** A fixed-window store whose global counter counts as `incr` says (the route's own limits keep the store as it is); the sliding one unchanged. */
/** What a bent count sees of the store: its windows, by bucket, and the time now. */
type FixedState = { windows: Map<string, { start: number; hits: Set<string> }>; now: number };
const bendGlobalFixedIncr = (
  incr: (store: FixedState, sup: FixedWindowStore['incr'], key: string, cb: IncrCallback, timeWindow: number, max: number) => void,
): Seam =>
  bendStores(
    (Store) =>
      globalOnly(
        Store,
        class extends Store {
          override incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void {
            incr({ windows: this.windows, now: this.opts.clock() }, (...a) => super.incr(...a), key, cb, timeWindow, max);
          }
        },
      ),
    (Store) => Store,
  );

/** Whether the bucket's window ends now, for a fixed-window store's windows. */
const endsNow = (windows: ReadonlyMap<string, { start: number }>, bucket: string, now: number, timeWindow: number) => {
  const w = windows.get(bucket);
  return !!w && now - w.start >= timeWindow;
};

const STORE: OutsideFault[] = [
  // The window's end computed from a start that is never moved: the store's clock stands still at its first reading.
  {
    name: 'rl-never-reset',
    // The recovery test (RL-5) runs by default only when the window is short.
    what: 'the rate-limit window never ends',
    env: { RATE_LIMIT_WINDOW_S: '5' },
    clauses: ['RL-5'],
    reach: ['*#limit'],
    apply: bendEither(
      (Store) =>
        class extends Store {
          constructor(opts: StoreOptions) {
            let at: number | undefined;
            super({ ...opts, clock: () => (at ??= opts.clock()) });
          }
        },
    ),
  },
  // Each 429 restarts the window (fixed: its start moved to the refusal, after the old end was read; sliding: the refusal logged as a hit).
  {
    name: 'ind6-rl-429-extends-window',
    // Seen where a window end is observed: the recovery test, which runs by default with a window of 10 s or less.
    what: 'fixed window: each 429 restarts the window, while Retry-After / reset announce the old end',
    list: 'independent-6',
    env: { RATE_LIMIT_WINDOW_S: '10' },
    clauses: ['RL-5', 'RL-6'],
    apply: bendStores(
      (Store) =>
        class extends Store {
          override incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void {
            const now = this.opts.clock();
            super.incr(
              key,
              (err, res) => {
                if (res.current > max) this.windows.get(splitKey(key).bucket)!.start = now;
                cb(err, res);
              },
              timeWindow,
              max,
            );
          }
        },
      (Store) =>
        class extends Store {
          override incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void {
            const now = this.opts.clock();
            const { bucket, hit } = splitKey(key);
            super.incr(
              key,
              (err, res) => {
                if (res.current > max) this.logs.get(bucket)!.push({ at: now, id: hit });
                cb(err, res);
              },
              timeWindow,
              max,
            );
          }
        },
    ),
  },
  // Fixed window: the reset path opens the window at a count of 1 for this request, which the path after it counts again.
  {
    name: 'ind7-rl-reset-counts-twice',
    // Only a later window shows it: counted again after the recovery test, which runs by default with a short window.
    what: 'fixed window: the request that starts a new window is counted twice, so after a reset only max - 1 are served',
    list: 'independent-7',
    env: { RATE_LIMIT_WINDOW_S: '10' },
    clauses: ['RL-1'],
    apply: bendGlobalFixedIncr((store, incr, key, cb, timeWindow, max) => {
      const { bucket, hit } = splitKey(key);
      if (endsNow(store.windows, bucket, store.now, timeWindow)) incr(hitKey(bucket, `${hit} (reset)`), () => {}, timeWindow, max);
      incr(key, cb, timeWindow, max);
    }),
  },
  // Fixed window: the count as read is written back (with this hit) only after the store's round trip, so concurrent hits are lost.
  {
    name: 'ind7-rl-counter-lost-update',
    what: 'the global counter is read, then written 2 ms later: concurrent requests overwrite each other and more than max are served',
    list: 'independent-7',
    clauses: ['RL-2'],
    apply: bendGlobalFixedIncr((store, incr, key, cb, timeWindow, max) => {
      const { bucket, hit } = splitKey(key);
      incr(
        key,
        (err, res) => {
          const w = store.windows.get(bucket)!;
          if (res.current <= max) {
            w.hits.delete(hit);
            const read = new Set(w.hits);
            setTimeout(() => {
              w.hits = new Set([...read, hit]);
            }, LOST_UPDATE_DELAY_MS);
          }
          cb(err, res);
        },
        timeWindow,
        max,
      );
    }),
  },
  // Fixed window: every window of a key after its first holds another limit (the count reported is shifted to match).
  kindFault({
    kind: 'rl-later-limit',
    clauses: ['RL-1', 'RL-2'],
    apply: (rows) => {
      const delta = rows.reduce((sum, r) => sum + r.delta, 0);
      return bendStores(
        (Store) =>
          globalOnly(
            Store,
            class extends Store {
              private readonly later = new Set<string>();
              override incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void {
                const { bucket } = splitKey(key);
                if (endsNow(this.windows, bucket, this.opts.clock(), timeWindow)) this.later.add(bucket);
                const shift = this.later.has(bucket) ? delta : 0;
                super.incr(key, (err, res) => cb(err, { ...res, current: res.current - shift }), timeWindow, max + shift);
              }
            },
          ),
        (Store) => Store,
      );
    },
  }),
  // The limiter registered a second time in the checks routes' scope, on the same store: each request there is a second hit, counted first.
  {
    name: 'ind9-rl-checks-counted-twice',
    what: 'the limiter is registered again in the checks scope: each /v1/checks request counts twice, so only half the limit is served there',
    list: 'independent-9',
    clauses: ['RL-1'],
    apply: (app, seams) => {
      const ids = new Set<string>();
      app.addHook('onRequest', async (req) => {
        const place = placeOf(req);
        if ((place === 'check-read' || place === 'check-update') && !hasOwnLimit(req)) ids.add(req.id);
      });
      app.addHook('onResponse', async (req) => {
        ids.delete(req.id);
      });
      bendEither(
        (Store) =>
          class extends Store {
            override incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void {
              const { bucket, hit } = splitKey(key);
              if (ids.has(hit)) super.incr(hitKey(bucket, `${hit} (checks scope)`), () => {}, timeWindow, max);
              super.incr(key, cb, timeWindow, max);
            }
          },
      )(app, seams);
    },
  },
];

// ---------------------------------------------------------------------------------------------------
// Caching in front of the limiter.

/** How long a runtime read is served from the micro-cache. */
const MICRO_CACHE_MS = 1000;

const CACHE: NamedFault[] = [
  // A micro-cache of runtime reads in front of the limiter: 200s of GET /v1/runtimes/:id kept per URL and credentials, a hit answered uncounted.
  {
    name: 'ind9-rl-cache-before-limiter',
    what: 'a 1 s micro-cache of runtime reads (per URL and credentials) answers before the limiter: repeated reads are never counted nor refused',
    list: 'independent-9',
    clauses: ['RL-2'],
    apply: (app, seams) => {
      const clock = limiterClock(app, seams);
      const entries = new Map<string, { at: number; type: string; body: string }>();
      const keyOf = (req: FastifyRequest) =>
        JSON.stringify([req.url, req.headers.authorization ?? '', ...Object.entries(req.headers).filter(([name]) => name.endsWith('-account'))]);
      const cacheable = (req: FastifyRequest) => req.method === 'GET' && req.routeOptions.url === '/v1/runtimes/:id';
      app.addHook('onRequest', async (req, reply) => {
        const hit = cacheable(req) ? entries.get(keyOf(req)) : undefined;
        if (hit && clock() - hit.at < MICRO_CACHE_MS) return reply.type(hit.type).header('x-cache', 'HIT').send(hit.body);
      });
      app.addHook('onSend', async (req, reply, payload) => {
        if (cacheable(req) && reply.statusCode === 200 && typeof payload === 'string' && reply.getHeader('x-cache') === undefined)
          entries.set(keyOf(req), { at: clock(), type: String(reply.getHeader('content-type')), body: payload });
        return payload;
      });
    },
  },
];

// ---------------------------------------------------------------------------------------------------
// The refusal's body. Applied in this order: the body built, then replaced, then edited, then the ban
// (which answers in place of all of them).

/** ind8-rl-ban-403-after-refusals: refusals a bucket may get in one window before it is banned for the rest of it. */
const REFUSALS_BEFORE_BAN = 3;

const REFUSAL: NamedFault[] = [
  // The attributes turned into entries "to keep their order", which makes them an array of pairs.
  {
    name: 'ind8-err-429-attributes-entries',
    what: '429 bodies carry attributes as Object.entries() pairs ([["limit",600],…]), an array, not an object',
    list: 'independent-8',
    files: [TEST_FILES.spec, TEST_FILES.burst, TEST_FILES.rateLimit],
    clauses: ['ERR-2', 'RL-3', 'SPEC-9'],
    apply: bentRefusal(
      () => true,
      (body) => {
        if (body.attributes !== undefined) body.attributes = Object.entries(body.attributes as object);
      },
    ),
  },
  // The limiter's refusal mapped to "unavailable", with a body to match.
  {
    name: 'rl-503',
    what: 'the limiter answers 503 (with a 503 body) instead of 429',
    clauses: ['RL-2'],
    reach: ['*#limit'],
    apply: bend('tooManyRequests', (orig) => (refusal, req) => {
      const { message } = orig(refusal, req).body;
      return new RateLimitError(503, { statusCode: 503, error: 'Service Unavailable', message });
    }),
  },
  // The body of another limiter's 429 kept.
  {
    name: 'rl-429-body',
    what: '429 body is {code:429,message:"Rate limit exceeded"}',
    files: [TEST_FILES.rateLimit, TEST_FILES.burst],
    clauses: ['RL-3', 'ERR-2'],
    reach: ['*#limit'],
    apply: bend('tooManyRequests', () => () => new RateLimitError(429, { code: 429, message: 'Rate limit exceeded' })),
  },
  // A route with its own limit words its 429 by hand.
  {
    name: 'ind-err-custom-429-wording',
    what: '429 of the custom-limited GET /v1/runtimes says error "Too many requests"',
    list: 'independent',
    files: [TEST_FILES.burst, TEST_FILES.rateLimit],
    clauses: ['ERR-2', 'RL-3'],
    apply: bentRefusal(
      (refusal) => refusal.scope === 'route',
      (body) => (body.error = 'Too many requests'),
    ),
  },
  // A route with its own limit builds its 429 by hand, without the status.
  {
    name: 'rl-custom-429-body',
    // The custom route's own 429 (the global burst's are right): RL-3 holds for every 429.
    what: 'the 429 of the custom-limited GET /v1/runtimes has no statusCode',
    clauses: ['RL-3'],
    reach: ['*#limit'],
    apply: bentRefusal(
      (refusal) => refusal.scope === 'route',
      (body) => delete body.statusCode,
    ),
  },
  // The limiter's bucket reported "for support"; the bucket is named by the key.
  {
    name: 'ind7-auth-429-attributes-key',
    what: "429 bodies report the limiter's bucket in attributes.key, which is the API key",
    list: 'independent-7',
    files: [TEST_FILES.auth, TEST_FILES.burst, TEST_FILES.rateLimit],
    clauses: ['AUTH-7'],
    reach: ['*#auth'],
    apply: (app, seams) =>
      bentRefusal(byLimiterHook, (body, req) => (body.attributes = { ...(body.attributes as object), key: seams.rateLimit.bucket(req) }))(app, seams),
  },
  // A client that keeps going after its third 429 in a window is banned (403) until the window ends.
  {
    name: 'ind8-rl-ban-403-after-refusals',
    what: 'after three refusals in a window the key is "banned": further requests over the limit answer 403, not 429',
    list: 'independent-8',
    clauses: ['RL-2'],
    apply: (app, seams) => {
      const clock = limiterClock(app, seams);
      const refusals = new Map<string, { count: number; until: number }>();
      bend('tooManyRequests', (orig): TooManyRequests => (refusal, req) => {
        const err = orig(refusal, req);
        if (!byLimiterHook(refusal, req)) return err;
        const now = clock();
        const bucket = seams.rateLimit.bucket(req);
        const seen = refusals.get(bucket);
        const mine = seen && now < seen.until ? seen : { count: 0, until: now + refusal.ttlMs };
        refusals.set(bucket, { ...mine, count: mine.count + 1 });
        if (mine.count < REFUSALS_BEFORE_BAN) return err;
        return new RateLimitError(403, { statusCode: 403, error: 'Forbidden', message: 'Too many refused requests: banned until the rate-limit window ends' });
      })(app, seams);
    },
  },
];

// ---------------------------------------------------------------------------------------------------
// The limit headers as they leave, each lie relative to the truth it replaces.

const header = (reply: FastifyReply, name: string): number | undefined => {
  const v = reply.getHeader(name);
  return v === undefined ? undefined : Number(v);
};

/** The rl-headers lies: the limit headers the limiter set (x-ratelimit-limit / -remaining / -reset, retry-after on a 429) rewritten. */
function lieInHeaders(reply: FastifyReply, lies: readonly HeaderMutation[]): void {
  const truth = {
    limit: header(reply, 'x-ratelimit-limit'),
    remaining: header(reply, 'x-ratelimit-remaining'),
    reset: header(reply, 'x-ratelimit-reset'),
    retry: header(reply, 'retry-after'),
  };
  const set = (name: string, value: number | undefined) => {
    if (value !== undefined && !Number.isNaN(value)) reply.header(name, String(value));
  };
  for (const lie of lies) {
    if (lie === 'remaining-stuck') set('x-ratelimit-remaining', truth.limit);
    if (lie === 'remaining-off' && truth.remaining !== undefined) set('x-ratelimit-remaining', truth.remaining + 1);
    if (lie === 'limit-wrong' && truth.limit !== undefined) set('x-ratelimit-limit', truth.limit + 100);
    if (lie === 'reset-ms' && truth.reset !== undefined) set('x-ratelimit-reset', truth.reset * 1000);
    if (lie === 'retry-after-zero' && truth.retry !== undefined) set('retry-after', 0);
    if (lie === 'retry-after-long' && truth.retry !== undefined) set('retry-after', truth.retry * 10);
    // An end announced before the real one: a client that heeds it is refused again.
    if (lie === 'retry-after-short' && truth.retry !== undefined) set('retry-after', Math.floor(truth.retry / 4));
  }
}

/** The lies told on each service, all told from the headers as the limiter set them (the first record to tell one adds the step). */
const liesOf = new WeakMap<FastifyInstance, HeaderMutation[]>();
const tellLies =
  (lies: HeaderMutation[]): Seam =>
  (app, seams) => {
    const told = liesOf.get(app);
    if (told) {
      told.push(...lies);
      return;
    }
    const all = [...lies];
    liesOf.set(app, all);
    lastOnSend(async (_req, reply) => lieInHeaders(reply, all))(app, seams);
  };

/** A 429's Retry-After rewritten from what the limiter wrote. */
const retryAfter = (rewrite: (seconds: number) => string): Seam =>
  lastOnSend(async (_req, reply) => {
    const after = reply.getHeader('retry-after');
    if (reply.statusCode === 429 && after !== undefined) reply.header('retry-after', rewrite(Number(after)));
  });

const HEADERS: OutsideFault[] = [
  // Retry-After rewritten from the store's ttl, which is in milliseconds.
  {
    name: 'ind-rl-retry-after-ms',
    what: 'Retry-After of a 429 is in milliseconds',
    list: 'independent',
    clauses: ['RL-6'],
    apply: retryAfter((s) => String(s * 1000)),
  },
  // The delta in seconds handed to a formatter that expects an epoch time.
  {
    name: 'ind7-rl-retry-after-epoch-date',
    what: 'Retry-After of a 429 written as an HTTP-date of the delta read as an epoch (a date in 1970)',
    list: 'independent-7',
    clauses: ['RL-6'],
    apply: retryAfter((s) => new Date(s * 1000).toUTCString()),
  },
  // The time-to-live computed as now - windowStart: reset and Retry-After count up from the window's start instead of down to its end.
  {
    name: 'rl-reset-counts-up',
    // A 429 that promises a short wait is taken at its word in every run: one request once it is due.
    what: 'x-ratelimit-reset and Retry-After count the seconds since the window began, not those until its end',
    clauses: ['RL-6'],
    reach: ['*#limit'],
    apply: (app, seams) => {
      const windowMs = limiterWindow(seams);
      lastOnSend(async (req, reply) => {
        const truth = Number(reply.getHeader('x-ratelimit-reset'));
        if (!Number.isFinite(truth) || hasOwnLimit(req)) return;
        const elapsed = String(Math.max(1, Math.round(windowMs() / 1000) - truth));
        reply.header('x-ratelimit-reset', elapsed);
        if (reply.statusCode === 429) reply.header('retry-after', elapsed);
      })(app, seams);
    },
  },
  // The refusal's headers written from the counter as the next window will start it.
  {
    name: 'ind8-rl-429-headers-next-window',
    what: 'a 429 carries the limit headers of the next window: x-ratelimit-remaining the full limit, reset the whole window',
    list: 'independent-8',
    clauses: ['RL-6'],
    apply: (app, seams) => {
      const windowMs = limiterWindow(seams);
      lastOnSend(async (req, reply) => {
        const limit = reply.getHeader('x-ratelimit-limit');
        if (reply.statusCode !== 429 || limit === undefined) return;
        reply.header('x-ratelimit-remaining', String(limit)).header('x-ratelimit-reset', String(Math.ceil(windowMsOf(req, windowMs()) / 1000)));
      })(app, seams);
    },
  },
  // The reset written by a helper that assumes epoch-aligned windows (the end of the current wall-clock window).
  {
    name: 'ind9-rl-reset-wall-clock-minute',
    what: "x-ratelimit-reset counts to the end of the wall-clock window (epoch-aligned), while the window really starts at the key's first request",
    list: 'independent-9',
    clauses: ['RL-6'],
    apply: (app, seams) => {
      const windowMs = limiterWindow(seams);
      const clock = limiterClock(app, seams);
      lastOnSend(async (req, reply) => {
        if (reply.getHeader('x-ratelimit-reset') === undefined || hasOwnLimit(req)) return;
        const windowS = Math.round(windowMs() / 1000);
        reply.header('x-ratelimit-reset', String(windowS - (Math.floor(clock() / 1000) % windowS)));
      })(app, seams);
    },
  },
  kindFault({ kind: 'rl-headers', clauses: ['RL-6'], apply: (rows) => tellLies(rows.map((r) => r.mutation)) }),
  // x-ratelimit-remaining never falls (rl-headers:remaining-stuck by its old name, after the rows).
  { name: 'rl-bad-headers', what: 'x-ratelimit-remaining never falls', clauses: ['RL-6'], reach: ['*#limit'], apply: tellLies(['remaining-stuck']) },
];

/** In the order they are applied: a seam bent later is bent on what the earlier ones made of it. */
export const RATE_LIMIT_FAULTS: OutsideFault[] = [...LIMIT, ...BUCKET, ...STORE, ...CACHE, ...REFUSAL, ...HEADERS];
