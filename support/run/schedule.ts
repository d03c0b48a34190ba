/**
 * The burst runs after every other test of its target: it exhausts a key's rate limit, and the document
 * does not say what the limit is counted by (key, account, address), so whatever shared its window
 * would be starved. Decided here, once per run: by default its tests hold Playwright's `-exclusive-`
 * lock (they start once no other test runs, in a worker already up); where the configuration gives the
 * burst a project of its own (a teardown project under --shuffle, a target of its own in a run of many
 * targets), that project keeps it apart and no lock is taken.
 */
import { fileMatcher, TEST_FILES } from './test-files';

/** The order, from the runner to its workers (they evaluate the configuration again). */
const ORDER_VARIABLE = 'CONTRACT_LAST_TESTS';
type Order = 'exclusive' | 'own-project';

export const BURST_FILE = fileMatcher(TEST_FILES.burst);

/** The runner decides once, from its command line; the workers read its decision. */
export function decideOrder(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Order {
  const decided = env[ORDER_VARIABLE] as Order | undefined;
  if (decided) return decided;
  const order: Order = argv.some((a) => a === '--shuffle' || a.startsWith('--shuffle=')) ? 'own-project' : 'exclusive';
  env[ORDER_VARIABLE] = order;
  return order;
}

/** For a configuration that gives the burst a project of its own, which keeps it apart. */
export function burstInOwnProject(env: NodeJS.ProcessEnv = process.env): void {
  env[ORDER_VARIABLE] = 'own-project';
}

/** The lock of the burst's tests: exclusive, unless they have a project of their own. */
export const lastLock = (env: NodeJS.ProcessEnv = process.env): string | undefined =>
  (env[ORDER_VARIABLE] ?? 'exclusive') === 'exclusive' ? '-exclusive-' : undefined;
