/** Everything a burst test needs before it sends: the key it spends, the route, the other key, and what the suite already sent with the key. */
import type { Config } from '../run/config';
import { RUNTIME_VERSIONS } from '../document/facts';
import { fillPath, type Target } from '../spec/target';
import { burstTarget } from './burst';
import { keyRoles } from './keys';
import { knownPrior, lastActivity, readLastRun } from './known-prior';
import { waitQuietWindow, windowMargin, type Limit } from './measurement';

export function burstPlan(config: Config, target: Target) {
  const roles = keyRoles(config);
  const path = fillPath(target.runtimePath, RUNTIME_VERSIONS[0]);
  const on = (key: { apiKey: string; accountId: string }) => burstTarget(config.baseUrl, path, { ...key, accountHeader: target.accountHeader });
  // The record of the last run, for a target that outlives the run (an embedded service is new every time).
  const record = config.embedded ? undefined : readLastRun(config.reportDir, config.baseUrl);
  const known = (apiKey: string, path?: string) => (since: number) => knownPrior(apiKey, since, { record, path });
  return {
    roles,
    // The runtime operation with the burst key, and with the other key when there is one.
    target: on(roles.burst),
    otherKey: roles.other && on(roles.other),
    known: known(roles.burst.apiKey),
    /** What the suite sent with this key, in a window starting at `since`; with `path`, only to that route (a route's own limit). */
    knownOf: (apiKey: string, path?: string) => known(apiKey, path),
    lastActivity: () => lastActivity(record),
    // Every configured key: an error body must echo none of them (AUTH-7).
    keys: [config.apiKey, config.second?.apiKey, config.burstKey?.apiKey].filter((k): k is string => k !== undefined),
    // The burst key is not the main key: no other run or shard of the suite spends it.
    exclusive: roles.burst.source !== 'API_KEY',
  };
}

export type BurstPlan = ReturnType<typeof burstPlan>;

/**
 * The key a route's own limit is burst with: of the main key and the second one (never the burst's, whose window must stay fresh), the
 * one the suite sent fewer requests with in the last window, so that the route's burst rarely waits for room under the global limit.
 */
export function roomiestKey(config: Config, plan: BurstPlan, limit: Limit): { apiKey: string; accountId: string } {
  const windowMs = limit.windowSeconds * 1000;
  const since = Date.now() - windowMs - windowMargin(windowMs);
  const main = { apiKey: config.apiKey, accountId: config.accountId };
  const candidates = [main, ...(config.second && config.second.apiKey !== plan.roles.burst.apiKey ? [config.second] : [])];
  return candidates.reduce((a, b) => (plan.knownOf(b.apiKey)(since).count < plan.knownOf(a.apiKey)(since).count ? b : a));
}

/** Waits until the key has room for `n` more requests under the global `limit`, so that it never cuts short a route's own burst; returns the ms waited. */
export async function waitForRoom(plan: BurstPlan, apiKey: string, limit: Limit, n: number): Promise<number> {
  const windowMs = limit.windowSeconds * 1000;
  const { times } = plan.knownOf(apiKey)(Date.now() - windowMs - windowMargin(windowMs));
  const excess = times.length + n - limit.max;
  // Room comes when the oldest `excess` requests have left the window.
  return excess <= 0 ? 0 : waitQuietWindow(times[Math.min(excess, times.length) - 1], windowMs);
}
