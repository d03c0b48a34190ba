/** Which key does what for the rate limit: the burst wants a key nothing else uses, so that its window holds nothing to explain. */
import type { Config } from '../run/config';
import type { Spec } from '../spec/spec';
import type { Target } from '../spec/target';
import { burstBound } from './burst';
import { CUSTOM_CONCURRENCY, customLimitsOf, planCustomLimit } from './custom-limits';

type KeyCredentials = Pick<Config, 'apiKey' | 'accountId'>;

export function keyRoles(config: Config) {
  const main = { apiKey: config.apiKey, accountId: config.accountId, source: 'API_KEY' as const };
  const own = config.burstKey
    ? { ...config.burstKey, source: 'BURST_API_KEY' as const }
    : config.second && { ...config.second, source: 'SECOND_API_KEY' as const };
  return {
    burst: own ?? main,
    /** Another key, to see whether the limit is counted per key (the main key when the burst has its own). */
    other: own && main,
  };
}

/** The key for probes with a valid key that are refused (AUTH-2, -5, -6): never the burst's when there is another, since a target may or may not count them. */
export function refusedProbeCredentials(config: Config): KeyCredentials & { which: 'main' | 'second' } {
  const burst = keyRoles(config).burst.apiKey;
  if (config.second && config.second.apiKey !== burst) return { ...config.second, which: 'second' };
  return { apiKey: config.apiKey, accountId: config.accountId, which: 'main' };
}

/** For the report: which key the burst spends, and whether its window is its own. */
export function describeBurstKey(roles: ReturnType<typeof keyRoles>): string {
  return roles.burst.source === 'API_KEY'
    ? 'the burst spends API_KEY, the only key: its window is shared with the contract tests (set BURST_API_KEY or SECOND_API_KEY for a fresh one)'
    : `the burst spends ${roles.burst.source}, which the contract tests do not use`;
}

/** The other account's key for CU-8, or why not: using the burst's key before the burst would spoil its fresh window. */
export function foreignCredentials(config: Config, burstRuns: boolean): { credentials: KeyCredentials } | { skip: string } {
  if (!config.second) return { skip: 'SECOND_API_KEY and SECOND_ACCOUNT_ID are not set: no other account to ask with' };
  if (config.burst && burstRuns && keyRoles(config).burst.apiKey === config.second.apiKey)
    return {
      skip: "SECOND_API_KEY is the burst's key in this run (BURST_API_KEY is unset): a request with it before the burst would leave the burst a window that is not fresh; set BURST_API_KEY, or run without the burst (BURST=off, or the families' files alone)",
    };
  return { credentials: config.second };
}

/**
 * What the contract tests leave of the main key's window: a margin, since requests sent at once all pass the pacing before any of
 * their answers is recorded; and where a route's own burst must spend the main key (no second key, or the second one is the
 * burst's), the room those bursts wait for too (each its bound: a correct fixed window may serve twice its limit across a
 * boundary), never more than half the window.
 */
export function contractReserve(config: Config, spec: Spec, target: Target): number {
  const anotherKey = !!config.second && config.second.apiKey !== keyRoles(config).burst.apiKey;
  if (anotherKey) return Math.min(20, Math.floor(config.rateLimit.max * 0.05));
  // One key: every request counts, and a default run's contract tests come close to the window (a 429 beyond it is waited out, never failed).
  const margin = Math.min(5, Math.floor(config.rateLimit.max * 0.01));
  const bursts = config.burst ? customLimitsOf(spec).filter((l) => planCustomLimit(l, config, target).path) : [];
  return Math.min(margin + bursts.reduce((n, l) => n + burstBound(l, CUSTOM_CONCURRENCY), 0), Math.floor(config.rateLimit.max / 2));
}
