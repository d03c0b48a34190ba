/**
 * Faults of the rate limit family, generated from its tables (support/rate-limit/places.ts) and the
 * reference's fault grammar: each with the one catch it must produce (clause, place, value class).
 *
 * Also the settings of the reference service that are correct and must pass (RATE_LIMIT_SETTINGS):
 * whether refused requests count (the document does not say), a limit per client address (neither),
 * and a second run right after the first against the same service (a window the first run used).
 */
import type { ClauseId } from '../../../support/document/clauses';
import { BUCKET_PARTS } from '../catalogue/fault-kinds';
import { BURST_PLACE, RL_CLASSES } from '../../../support/rate-limit/places';
import type { GeneratedFault } from '../types';
import { TEST_FILES } from '../../../support/run/test-files';

const BURST = [TEST_FILES.burst];
const HEADERS = [TEST_FILES.rateLimit, ...BURST];

/** The two window algorithms of the reference: every limit fault is tried under both. */
const ALGORITHMS: Array<Record<string, string> | undefined> = [undefined, { RATE_LIMIT_ALGORITHM: 'sliding' }];

/** Routes where the suite meets a 429 once the key is over its limit (the spec route is not limited by the reference). */
const LIMITED_PLACES = [BURST_PLACE, 'check-read', 'check-update'] as const;

/** The errbody mutations of a 429 and the clause each breaks first. */
const BODY_MUTATIONS: Record<string, ClauseId> = {
  'string-status': 'ERR-4',
  wording: 'ERR-2',
  'text-type': 'ERR-3',
  'status-mismatch': 'ERR-4',
  'not-json': 'ERR-3',
  'no-error': 'ERR-2',
  'no-status': 'ERR-4',
  'echo-key': 'AUTH-7',
  'message-number': 'ERR-2',
  'attributes-string': 'ERR-2',
};

/**
 * A window short enough for the recovery test to run by default (it waits one out), long enough that a
 * burst slowed by a loaded machine still leaves most of it to observe.
 */
const SHORT_WINDOW = { RATE_LIMIT_WINDOW_S: '10' };

/** The rl-headers lies: each makes a header disagree with the window or with what the target does (RL-6) within one burst. */
const HEADER_LIES = ['remaining-stuck', 'remaining-off', 'limit-wrong', 'reset-ms', 'retry-after-zero', 'retry-after-long'] as const;

/**
 * The route with a limit of its own in the reference's spec (GET /v1/runtimes, 20 / 10 s). Under
 * RATE_LIMIT_HEADERS=global its headers announce the global limit (issue 23: correct), and the lies are
 * judged against that: remaining-off is none there (the global count has no value the burst knows).
 */
const CUSTOM_PLACE = 'GET /v1/runtimes';
const GLOBAL_HEADER_LIES = ['remaining-stuck', 'limit-wrong', 'reset-ms', 'retry-after-zero', 'retry-after-long'] as const;

const withEnv = (env: Record<string, string> | undefined) => (env ? { env } : {});

export const RATE_LIMIT_GENERATED: GeneratedFault[] = [
  // A limit one above or one below the configured one, fixed and sliding windows alike.
  ...ALGORITHMS.flatMap((env): GeneratedFault[] => [
    { fault: 'rl-limit:+1', clause: 'RL-2', place: BURST_PLACE, valueClass: RL_CLASSES.burst, direction: 'loose', files: BURST, ...withEnv(env) },
    { fault: 'rl-limit:-1', clause: 'RL-1', place: BURST_PLACE, valueClass: RL_CLASSES.burst, direction: 'strict', files: BURST, ...withEnv(env) },
  ]),
  // A limit one off in every window after the key's first (counted again after the recovery test's wait): a short window, so that it runs.
  ...(['-1', '+1'] as const).map((d): GeneratedFault => ({
    fault: `rl-later-limit:${d}`,
    clause: d === '-1' ? 'RL-1' : 'RL-2',
    place: BURST_PLACE,
    valueClass: RL_CLASSES.afterWindow,
    direction: d === '-1' ? 'strict' : 'loose',
    files: BURST,
    env: SHORT_WINDOW,
  })),
  // The burst's own route not limited: no 429 at all.
  { fault: `rl-exempt:${BURST_PLACE}`, clause: 'RL-2', place: BURST_PLACE, valueClass: RL_CLASSES.burst, direction: 'loose', files: BURST },
  { fault: 'rl-exempt:any', clause: 'RL-2', place: BURST_PLACE, valueClass: RL_CLASSES.burst, direction: 'loose', files: BURST },
  // Another route outside the limit is allowed ("most routes"); its spec declaring 429 makes it spec
  // drift, a failure only under STRICT_SPEC=on.
  ...(['check-read', 'check-update'] as const).map((place): GeneratedFault => ({
    fault: `rl-exempt:${place}`,
    clause: 'RL-2',
    place,
    valueClass: RL_CLASSES.limited,
    direction: 'loose',
    files: BURST,
    env: { STRICT_SPEC: 'on' },
  })),
  // Every 429 on every limited route carries the ERR-2 body, as JSON.
  ...LIMITED_PLACES.flatMap((place) =>
    Object.entries(BODY_MUTATIONS).map(([mutation, clause]): GeneratedFault => ({
      fault: `errbody:${place}:429:${mutation}`,
      clause,
      place,
      valueClass: RL_CLASSES.limited,
      direction: 'loose',
      files: BURST,
    })),
  ),
  // The key's limit counted per URL, or per spelling of the key, as well: only a burst spread over the
  // route's ids and the key's accepted spellings shows it (spread.ts).
  ...BUCKET_PARTS.map((part): GeneratedFault => ({
    fault: `rl-bucket:${part}`,
    clause: 'RL-2',
    place: BURST_PLACE,
    valueClass: RL_CLASSES.burst,
    direction: 'loose',
    files: BURST,
  })),
  // An end announced before the real one: seen where a window end is observed, the recovery test (a short window).
  ...ALGORITHMS.map((env): GeneratedFault => ({
    fault: 'rl-headers:retry-after-short',
    clause: 'RL-6',
    place: BURST_PLACE,
    valueClass: RL_CLASSES.afterWindow,
    direction: 'loose',
    files: BURST,
    env: { ...SHORT_WINDOW, ...env },
  })),
  ...HEADER_LIES.map((lie): GeneratedFault => ({
    fault: `rl-headers:${lie}`,
    clause: 'RL-6',
    place: BURST_PLACE,
    valueClass: RL_CLASSES.burst,
    direction: 'loose',
    files: HEADERS,
  })),
  ...GLOBAL_HEADER_LIES.map((lie): GeneratedFault => ({
    fault: `rl-headers:${lie}`,
    clause: 'RL-6',
    place: CUSTOM_PLACE,
    valueClass: RL_CLASSES.burst,
    direction: 'loose',
    files: BURST,
    env: { RATE_LIMIT_HEADERS: 'global' },
  })),
];

/** A correct setting of the reference service: the suite must pass it, and (when `noWait`) decide the limit without waiting a window. */
export interface RateLimitSetting {
  name: string;
  env: Record<string, string>;
  fault?: string;
  /** The burst decides at its first measurement: `rate-limit-burst.json` lists no wait. */
  noWait: boolean;
  /**
   * Run the suite twice in a row against one reference service started for both (BASE_URL), with the
   * same report folder: the second run meets the window the first one used.
   */
  twice?: boolean;
}

export const RATE_LIMIT_SETTINGS: RateLimitSetting[] = [
  ...ALGORITHMS.flatMap((algorithm) =>
    ['on', 'off'].map((count): RateLimitSetting => ({
      name: `refused requests ${count === 'on' ? 'count' : 'do not count'} (RATE_LIMIT_COUNT_REFUSED=${count}), ${algorithm ? 'sliding' : 'fixed'} window`,
      env: { RATE_LIMIT_COUNT_REFUSED: count, ...(algorithm ?? {}) },
      noWait: true,
    })),
  ),
  { name: 'a limit counted per client address: a note, not a failure', fault: 'rl-per-ip', env: { RATE_LIMIT_WINDOW_S: '5' }, noWait: false },
  { name: 'a second run right after the first meets a window the first one used', env: { RATE_LIMIT_WINDOW_S: '10' }, noWait: false, twice: true },
];
