/** The files a run's runner and workers share (the checked spec, the request ledger), in a folder global setup hands over (config.ts). */
import { join } from 'node:path';
import { hostname } from 'node:os';
import { handedOver, handOver } from './config';

/** A run's files in its folder: the checked spec, as JSON (spec-cache.ts); the request ledger, one line per request and per answer (request-ledger.ts). */
export const filesIn = (dir: string) => ({ specCache: join(dir, 'spec.json'), ledger: join(dir, 'requests.ledger') });

export type RunFiles = Partial<ReturnType<typeof filesIn>>;

/** The files of the test running now (fixtures.ts): a worker may run the tests of several configurations, one test at a time. */
let inUse: RunFiles | undefined;

/** The files `env` names; without it, the running test's, else this process's. */
export function runFiles(env?: NodeJS.ProcessEnv): RunFiles {
  if (!env && inUse) return inUse;
  const dir = handedOver('runDir', env);
  return dir ? filesIn(dir) : {};
}

/** The files of the test about to run, from its configuration's environment. */
export function useRunFiles(files: RunFiles): void {
  inUse = files;
}

/** Names the run's folder in an environment: this process's, which the workers it starts inherit (global setup; unit tests). */
export function setRunDir(dir: string, env?: NodeJS.ProcessEnv): void {
  handOver('runDir', dir, env);
}

/** The id of the current run, the same in every worker: its folder's; without global setup, the runner's pid. */
export function currentRunId(env?: NodeJS.ProcessEnv): string {
  return runFiles(env).specCache ?? `runner ${process.ppid} on ${hostname()}`;
}
