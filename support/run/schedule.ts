/**
 * The tests that run after every other test of their target:
 * - the burst, which exhausts a key's rate limit: the document does not say what the limit is counted
 *   by (key, account, address), so whatever shared its window would be starved;
 * - the judgements of the agent's sessions (its shutdown, its default port), which the runner lives
 *   while the tests run (support/agent/background-session.ts): judged last, they wait for nothing, or
 *   for little.
 *
 * How they are kept last:
 * - A user's run: they are in the contract project and hold Playwright's built-in `-exclusive-` lock, so
 *   they start only once no other test runs (a failed test's requeued remainder included: Playwright puts
 *   it back at the head of the queue before the slot is free) and no test starts until they end. They run
 *   in a worker that is already up (a project of its own would cost a new worker, about 0.8 s). Among
 *   them Playwright keeps the files' order: the burst's file (z-rate-limit-burst) sorts after every
 *   other family's, and the agent's (zz-agent) after it. The agent's judgements touch no target, so
 *   they may follow the burst; coming after it, they find their records written, where before it they
 *   waited for the end of the agent's drain.
 * - With --shuffle the queue order is random and a locked test could come first and hold the others
 *   back: the burst is then a project of its own, the contract project's teardown, and nothing is locked.
 * - The self-test's fault run: one worker per target, which runs its files in name order, so the burst
 *   is last there without a lock (an exclusive lock would hold the tests of every other target).
 */

import { fileMatcher, TEST_FILES } from './test-files';

/** The order, from the runner to its workers (they evaluate the configuration again). */
const ORDER_VARIABLE = 'CONTRACT_LAST_TESTS';
type Order = 'exclusive' | 'teardown' | 'file-order';

export const BURST_FILE = fileMatcher(TEST_FILES.burst);
export const AGENT_FILE = fileMatcher(TEST_FILES.agent);

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
