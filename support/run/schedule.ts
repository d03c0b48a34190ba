/**
 * The burst runs after every other test of its target: it exhausts a key's rate limit, and the document
 * does not say what the limit is counted by (key, account, address), so whatever shared its window
 * would be starved. In a user's run it holds Playwright's `-exclusive-` lock (it starts once no other
 * test runs, in a worker already up); with --shuffle it is the contract project's teardown instead; in
 * the self-test's fault run (one worker per target, files in name order) its file sorts last.
 */

import { fileMatcher, TEST_FILES } from './test-files';

/** The order, from the runner to its workers (they evaluate the configuration again). */
const ORDER_VARIABLE = 'CONTRACT_LAST_TESTS';
type Order = 'exclusive' | 'teardown' | 'file-order';

export const BURST_FILE = fileMatcher(TEST_FILES.burst);

/** The runner decides once, from its command line; the workers read its decision. */
export function decideOrder(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Order {
  const decided = env[ORDER_VARIABLE] as Order | undefined;
  if (decided) return decided;
  const order: Order = argv.some((a) => a === '--shuffle' || a.startsWith('--shuffle=')) ? 'teardown' : 'exclusive';
  env[ORDER_VARIABLE] = order;
  return order;
}

/** For the self-test's fault run (selftest/fault-run.config.ts). */
export function keepFileOrder(env: NodeJS.ProcessEnv = process.env): void {
  env[ORDER_VARIABLE] = 'file-order';
}

/** The lock of the tests that run last: exclusive, unless their order is kept some other way. */
export const lastLock = (env: NodeJS.ProcessEnv = process.env): string | undefined =>
  (env[ORDER_VARIABLE] ?? 'exclusive') === 'exclusive' ? '-exclusive-' : undefined;
