/**
 * The burst runs after every other test of its target, since it starves whatever shares its window: by Playwright's `-exclusive-` lock,
 * or in a project of its own (a teardown project under --shuffle), decided once per run. The runner decides from its command line
 * (selection.ts) and hands its decisions to its workers (config.ts), which evaluate the configuration again without it.
 */
import { handedOver, handOver } from './config';
import type { Selection } from './selection';
import { fileMatcher, TEST_FILES } from './test-files';

type Order = 'exclusive' | 'own-project';

export const BURST_FILE = fileMatcher(TEST_FILES.burst);

/** The runner decides once, from its command line; the workers read its decision. */
export function decideOrder(selection: Pick<Selection, 'shuffle'>, env?: NodeJS.ProcessEnv): Order {
  if (!handedOver('lastTests', env)) handOver('lastTests', selection.shuffle ? 'own-project' : 'exclusive', env);
  return handedOver('lastTests', env) as Order;
}

/** For a configuration that gives the burst a project of its own, which keeps it apart. */
export function burstInOwnProject(env?: NodeJS.ProcessEnv): void {
  handOver('lastTests', 'own-project', env);
}

/** The lock of the burst's tests: exclusive, unless they have a project of their own. */
export const lastLock = (env?: NodeJS.ProcessEnv): string | undefined =>
  (handedOver('lastTests', env) ?? 'exclusive') === 'exclusive' ? '-exclusive-' : undefined;

/** A command-line filter that names a test file of ours (what a run of one family passes). */
const namesTestFile = (filter: string) => /\.spec\.ts$/.test(filter);

/** Whether this run may send the burst: false only where its command line certainly leaves the burst's file out (other files named, or @burst grepped out). */
export function decideBurstInRun(selection: Pick<Selection, 'files' | 'grepInvert'>, env?: NodeJS.ProcessEnv): boolean {
  if (!handedOver('burstInRun', env)) {
    const { files, grepInvert } = selection;
    const filesOnly = files.length > 0 && files.every(namesTestFile) && !files.some((f) => BURST_FILE.test(f));
    handOver('burstInRun', filesOnly || grepInvert.some((g) => g.includes('@burst')) ? 'no' : 'yes', env);
  }
  return handedOver('burstInRun', env) === 'yes';
}

/** A project's files as Playwright holds them. */
type ProjectFiles = { testMatch: string | RegExp | ReadonlyArray<string | RegExp> };

/** In a worker: whether the burst may run against this test's target: the runner's decision, and not in a project whose files leave it out. */
export function burstInRun(project?: ProjectFiles, env?: NodeJS.ProcessEnv): boolean {
  if (handedOver('burstInRun', env) === 'no') return false;
  const match = project ? [project.testMatch].flat() : [];
  return !(match.length && match.every((m) => m instanceof RegExp) && !match.some((m) => (m as RegExp).test(TEST_FILES.burst)));
}
