/** The files a run's runner and workers share (the checked spec, the request ledger), named in the environment by global setup; only this module reads those names. */
import { rmSync } from 'node:fs';
import { hostname } from 'node:os';

const SPEC_CACHE_VARIABLE = 'CONTRACT_SPEC_CACHE';
const LEDGER_VARIABLE = 'CONTRACT_REQUEST_LEDGER';

export interface RunFiles {
  /** The checked spec, as JSON (spec-cache.ts). */
  specCache?: string;
  /** The request ledger, one line per request and per answer (request-ledger.ts). */
  ledger?: string;
}

/** The files of the test running now (fixtures.ts): a worker may run the tests of several configurations, one test at a time. */
let inUse: RunFiles | undefined;

/** The files `env` names; without it, the running test's, else this process's. */
export function runFiles(env?: NodeJS.ProcessEnv): RunFiles {
  if (!env && inUse) return inUse;
  const from = env ?? process.env;
  return {
    specCache: from[SPEC_CACHE_VARIABLE] || undefined,
    ledger: from[LEDGER_VARIABLE] || undefined,
  };
}

/** The files of the test about to run, from its configuration's environment. */
export function useRunFiles(files: RunFiles): void {
  inUse = files;
}

/** Names the run's files in an environment: this process's, which the workers it starts inherit (global setup; unit tests). */
export function setRunFiles(files: RunFiles, env: NodeJS.ProcessEnv = process.env): void {
  if (files.specCache !== undefined) env[SPEC_CACHE_VARIABLE] = files.specCache;
  if (files.ledger !== undefined) env[LEDGER_VARIABLE] = files.ledger;
}

/** The end of a run (global teardown, or a setup that stops the run): its files go. */
export function removeRunFiles(): void {
  const { specCache, ledger } = runFiles();
  for (const file of [specCache, ledger]) if (file) rmSync(file, { force: true });
}

/** The id of the current run, the same in every worker: the spec file's; without global setup, the runner's pid. */
export function currentRunId(env?: NodeJS.ProcessEnv): string {
  return runFiles(env).specCache ?? `runner ${process.ppid} on ${hostname()}`;
}
