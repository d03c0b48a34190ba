/**
 * Faults of the rate limit (RL) and the clauses the suite must fail on because of them, under the
 * documented window (the burst decides at once with a key of its own). Two run with a 5 s window (suite
 * and reference alike), each because a window is waited out: the recovery test (RL-5) runs by default
 * only when the window is short, and a limit far above the configured one is confirmed in a second one.
 */
import type { FaultExpectation } from './types';
import { TEST_FILES } from '../../support/run/test-files';

const RL = [TEST_FILES.rateLimit, TEST_FILES.burst];
const shortWindow = { RATE_LIMIT_WINDOW_S: '5' };

export const RATE_LIMIT_FAULTS: FaultExpectation[] = [
  // No limiter at all: the global burst and the custom route both run free.
  { fault: 'rl-none', clauses: ['RL-2', 'RL-4'], files: RL },
  { fault: 'rl-500', clauses: ['RL-1'], files: RL },
  // 100 more than the limit is seen in two fresh windows before it counts as the limit: a short window.
  { fault: 'rl-700', clauses: ['RL-2'], files: RL, env: shortWindow },
  { fault: 'rl-429-body', clauses: ['RL-3', 'ERR-2'], files: RL },
  { fault: 'rl-503', clauses: ['RL-2'], files: RL },
  { fault: 'rl-never-reset', clauses: ['RL-5'], files: RL, env: shortWindow },
  // rl-per-ip is no fault: whether the limit is counted per key or per client address is not in the
  // document (a note; see RATE_LIMIT_SETTINGS in generated/rate-limit.ts).
  { fault: 'rl-custom-ignored', clauses: ['RL-4'], files: RL },
  // The custom route's own 429 (the global burst's are right): RL-3 holds for every 429.
  { fault: 'rl-custom-429-body', clauses: ['RL-3'], files: RL },
  { fault: 'rl-bad-headers', clauses: ['RL-6'], files: RL },
  // A 429 that promises a short wait is taken at its word in every run: one request once it is due.
  { fault: 'rl-reset-counts-up', clauses: ['RL-6'], files: RL },
];
