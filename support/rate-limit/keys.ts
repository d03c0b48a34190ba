/**
 * Which key does what, as far as the rate limit is concerned.
 *
 * The burst decides the limit from what its window holds. A key the rest of the suite never uses gives
 * it a window with nothing to explain (BURST_API_KEY, else SECOND_API_KEY: the contract tests use the
 * main key). With one key only, the burst shares the window with every contract test, and the requests
 * a target may or may not count (refused ones: the document does not say) become hypotheses to tell
 * apart (prior-requests.ts).
 *
 * So a probe that carries a valid key but is refused (a bad account header, the key in another scheme)
 * must not be sent with the burst key: `refusedProbeCredentials` names the key for it.
 */
import type { Config } from '../run/config';

export interface KeyCredentials {
  apiKey: string;
  accountId: string;
}

export type BurstKeySource = 'BURST_API_KEY' | 'SECOND_API_KEY' | 'API_KEY';

export interface KeyRoles {
  burst: KeyCredentials & { source: BurstKeySource };
  /** Another key, to see whether the limit is counted per key (the main key when the burst has its own). */
  other?: KeyCredentials & { source: 'API_KEY' | 'SECOND_API_KEY' };
  /** Every key of the configuration, the burst's included. */
  all: KeyCredentials[];
}

const main = (c: Config): KeyCredentials => ({ apiKey: c.apiKey, accountId: c.accountId });

export function keyRoles(config: Config): KeyRoles {
  const all = [main(config), ...(config.second ? [config.second] : []), ...(config.burstKey ? [config.burstKey] : [])];
  if (config.burstKey) return { burst: { ...config.burstKey, source: 'BURST_API_KEY' }, other: { ...main(config), source: 'API_KEY' }, all };
  if (config.second) return { burst: { ...config.second, source: 'SECOND_API_KEY' }, other: { ...main(config), source: 'API_KEY' }, all };
  return { burst: { ...main(config), source: 'API_KEY' }, all };
}

/** True when the contract tests send with the burst key too (one key only): its window is shared. */
export const burstKeyShared = (config: Config) => keyRoles(config).burst.source === 'API_KEY';

/**
 * The key for probes that carry a valid key and are refused (AUTH-2, AUTH-5, AUTH-6): a key that is not
 * the burst's whenever there is one, so that the burst's window holds no request a target may or may not
 * count. With the embedded defaults (a second key, no BURST_API_KEY) that is the main key.
 */
export function refusedProbeCredentials(config: Config): KeyCredentials & { which: 'main' | 'second' } {
  const burst = keyRoles(config).burst.apiKey;
  if (config.second && config.second.apiKey !== burst) return { ...config.second, which: 'second' };
  return { ...main(config), which: 'main' };
}

/** For the report: which key the burst spends, and whether its window is its own. */
export function describeBurstKey(roles: KeyRoles): string {
  return roles.burst.source === 'API_KEY'
    ? 'the burst spends API_KEY, the only key: its window is shared with the contract tests (set BURST_API_KEY or SECOND_API_KEY for a fresh one)'
    : `the burst spends ${roles.burst.source}, which the contract tests do not use`;
}

/**
 * The other account's own key and account, for asking about the main account's check (CU-8), or why
 * not: a request with the burst's key before the burst would leave it a window that is not fresh.
 */
export function foreignCredentials(config: Config, burstRuns: boolean): { credentials: KeyCredentials } | { skip: string } {
  if (!config.second) return { skip: 'SECOND_API_KEY and SECOND_ACCOUNT_ID are not set: no other account to ask with' };
  if (config.burst && burstRuns && keyRoles(config).burst.apiKey === config.second.apiKey)
    return {
      skip: "SECOND_API_KEY is the burst's key in this run (BURST_API_KEY is unset): a request with it before the burst would leave the burst a window that is not fresh; set BURST_API_KEY, or run without the burst (BURST=off, or the families' files alone)",
    };
  return { credentials: config.second };
}
