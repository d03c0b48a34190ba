/**
 * The burst runs after every other test of its target, since it starves whatever shares its window: by Playwright's `-exclusive-` lock,
 * or in a project of its own (a teardown project under --shuffle), decided once per run.
 */
import { fileMatcher, TEST_FILES } from './test-files';

/** The order, from the runner to its workers (they evaluate the configuration again). */
const ORDER_VARIABLE = 'CONTRACT_LAST_TESTS';
type Order = 'exclusive' | 'own-project';

export const BURST_FILE = fileMatcher(TEST_FILES.burst);

/** The runner decides once, from its command line; the workers read its decision. */
export const decideOrder = (argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Order =>
  (env[ORDER_VARIABLE] ??= argv.some((a) => a === '--shuffle' || a.startsWith('--shuffle=')) ? 'own-project' : 'exclusive') as Order;

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

/** Whether this run may send the burst: false only where its command line certainly leaves the burst's file out (other files named, or @burst grepped out). */
export function decideBurstInRun(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  if (!env[BURST_IN_RUN_VARIABLE]) {
    const args = argv.slice(argv.indexOf('test') + 1);
    const invert = args.flatMap((a, i) => (a === '--grep-invert' || a === '-gv' ? [args[i + 1] ?? ''] : a.startsWith('--grep-invert=') ? [a.slice(14)] : []));
    const files = args.filter(namesTestFile);
    const patterns = args.filter((a, i) => !a.startsWith('-') && !namesTestFile(a) && !/^-/.test(args[i - 1] ?? ''));
    const filesOnly = files.length > 0 && patterns.length === 0 && !files.some((f) => BURST_FILE.test(f));
    env[BURST_IN_RUN_VARIABLE] = filesOnly || invert.some((g) => g.includes('@burst')) ? 'no' : 'yes';
  }
  return env[BURST_IN_RUN_VARIABLE] === 'yes';
}

/** A project's files as Playwright holds them. */
type ProjectFiles = { testMatch: string | RegExp | ReadonlyArray<string | RegExp> };

/** In a worker: whether the burst may run against this test's target: the runner's decision, and not in a project whose files leave it out. */
export function burstInRun(project?: ProjectFiles, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env[BURST_IN_RUN_VARIABLE] === 'no') return false;
  const match = project ? [project.testMatch].flat() : [];
  return !(match.length && match.every((m) => m instanceof RegExp) && !match.some((m) => (m as RegExp).test(TEST_FILES.burst)));
}
