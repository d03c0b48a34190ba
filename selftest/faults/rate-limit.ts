/**
 * Faults of the rate limit (RL) and the clauses the suite must fail on because of them. A 5 s window
 * (suite and reference alike) keeps the runs short and lets the recovery test (RL-5) run by default.
 */
import type { FaultExpectation } from './types';

const RL = ['tests/rate-limit.spec.ts', 'tests/z-rate-limit-burst.spec.ts'];
const env = { RATE_LIMIT_WINDOW_S: '5' };

export const RATE_LIMIT_FAULTS: FaultExpectation[] = [
  // No limiter at all: the global burst and the custom route both run free.
  { fault: 'rl-none', clauses: ['RL-2', 'RL-4'], files: RL, env },
  { fault: 'rl-500', clauses: ['RL-1'], files: RL, env },
  { fault: 'rl-700', clauses: ['RL-2'], files: RL, env },
  { fault: 'rl-429-body', clauses: ['RL-3', 'ERR-2'], files: RL, env },
  { fault: 'rl-503', clauses: ['RL-2'], files: RL, env },
  { fault: 'rl-never-reset', clauses: ['RL-5'], files: RL, env },
  // rl-per-ip is no fault: whether the limit is counted per key or per client address is not in the
  // document (a note; see RATE_LIMIT_SETTINGS in generated/rate-limit.ts).
  { fault: 'rl-custom-ignored', clauses: ['RL-4'], files: RL, env },
  // The custom route's own 429 (the global burst's are right): RL-3 holds for every 429.
  { fault: 'rl-custom-429-body', clauses: ['RL-3'], files: RL, env },
  { fault: 'rl-bad-headers', clauses: ['RL-6'], files: RL, env },
];
