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

/** Whether the burst's file is in this run, from the runner to its workers. */
const BURST_IN_RUN_VARIABLE = 'CONTRACT_BURST_IN_RUN';

/** A command-line token that names a test file of ours (what a run of one family passes). */
const namesTestFile = (token: string) => /\.spec\.ts$/.test(token);

/**
 * Whether this run may send the burst: false only where its command line certainly leaves the burst's
 * file out (it names test files, none of them the burst's; or it greps out @burst). Anything else
 * (no files named, a pattern that is not a file) counts as in.
 */
export function decideBurstInRun(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const decided = env[BURST_IN_RUN_VARIABLE];
  if (decided) return decided === 'yes';
  const args = argv.slice(argv.indexOf('test') + 1);
  const invert = args.flatMap((a, i) => (a === '--grep-invert' || a === '-gv' ? [args[i + 1] ?? ''] : a.startsWith('--grep-invert=') ? [a.slice(14)] : []));
  const files = args.filter(namesTestFile);
  const patterns = args.filter((a, i) => !a.startsWith('-') && !namesTestFile(a) && !/^-/.test(args[i - 1] ?? ''));
  const filesOnly = files.length > 0 && patterns.length === 0 && !files.some((f) => BURST_FILE.test(f));
  const out = filesOnly || invert.some((g) => g.includes('@burst'));
  env[BURST_IN_RUN_VARIABLE] = out ? 'no' : 'yes';
  return !out;
}

/** A project's files as Playwright holds them. */
type ProjectFiles = { testMatch: string | RegExp | ReadonlyArray<string | RegExp> };

/**
 * In a worker: whether the burst may run against this test's target in this run: the runner's decision
 * (decideBurstInRun), and a project that names its files (regular expressions), none of them the
 * burst's, runs none (a run of many targets gives the burst a target of its own).
 */
export function burstInRun(project?: ProjectFiles, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env[BURST_IN_RUN_VARIABLE] === 'no') return false;
  const match = project ? [project.testMatch].flat() : [];
  return !(match.length && match.every((m) => m instanceof RegExp) && !match.some((m) => (m as RegExp).test(TEST_FILES.burst)));
}
