/**
 * The files one run shares between its runner and its workers: the target's spec, fetched and checked
 * once by global setup, and the request ledger every worker appends to. Global setup names them in the
 * environment, which the workers inherit; this module is the only one that reads or writes those names
 * (config.ts reads the user's configuration, this the run's own hand-over).
 */
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

/**
 * The id of the current run, the same in every worker of it: the run-unique spec cache file; without
 * global setup, the runner process (the workers' parent).
 */
export function currentRunId(env: NodeJS.ProcessEnv = process.env): string {
  return runFiles(env).specCache ?? `runner ${process.ppid} on ${hostname()}`;
}
