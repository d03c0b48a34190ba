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

export function runFiles(env: NodeJS.ProcessEnv = process.env): RunFiles {
  return {
    specCache: env[SPEC_CACHE_VARIABLE] || undefined,
    ledger: env[LEDGER_VARIABLE] || undefined,
  };
}

/** Names the run's files for this process and the workers it starts (global setup; unit tests). */
export function setRunFiles(files: RunFiles): void {
  if (files.specCache !== undefined) process.env[SPEC_CACHE_VARIABLE] = files.specCache;
  if (files.ledger !== undefined) process.env[LEDGER_VARIABLE] = files.ledger;
}

/** The end of a run (global teardown, or a setup that stops the run): its files go. */
export function removeRunFiles(): void {
  const { specCache, ledger } = runFiles();
  for (const file of [specCache, ledger]) if (file) rmSync(file, { force: true });
}

/** The id of the current run, the same in every worker: the spec file's; without global setup, the runner's pid. */
export function currentRunId(env: NodeJS.ProcessEnv = process.env): string {
  return runFiles(env).specCache ?? `runner ${process.ppid} on ${hostname()}`;
}
