/**
 * Whole runs, cold start to exit, through the suite runner (as the self-test runs the suite): the default
 * run under each correct setting of the embedded service, the floor, and runs against a reference
 * started once (one key only; a second run right after the first). Each says what its burst decided and
 * whether it waited a whole window (rate-limit-burst.json).
 */
import { rmSync } from 'node:fs';
import { runSuite, type SuiteRun } from '../scripts/suite-runner';
import type { BurstSummary } from '../support/rate-limit/burst-summary';
import { BURST_SUMMARY_FILE, readReport } from '../support/run/report-files';
import type { Matrix } from '../reporters/clause-matrix';

export interface Timed {
  ms: number;
  exitCode: number | null;
  burst?: BurstSummary;
  requests?: Matrix['requests'];
  reportDir: string;
}

export const readBurst = (reportDir: string): BurstSummary | undefined => readReport(reportDir, BURST_SUMMARY_FILE);

export async function timedRun(env: Record<string, string>, args: string[] = [], reportDir?: string): Promise<Timed> {
  // No --workers: the default run's own count (playwright.config.ts), as a user gets it.
  const run: SuiteRun = await runSuite({ env, args, keepReports: true, reportDir, timeoutMs: 600_000 });
  const timed = { ms: run.ms, exitCode: run.exitCode, burst: readBurst(run.reportDir), requests: run.matrix?.requests, reportDir: run.reportDir };
  if (run.exitCode === 0 && !reportDir) rmSync(run.reportDir, { recursive: true, force: true });
  else if (run.exitCode !== 0) process.stdout.write(`  (a run exited ${run.exitCode}; its reports: ${run.reportDir})\n${run.output.slice(-1200)}\n`);
  return timed;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function burstText(t: Timed): string {
  if (!t.burst) return 'no burst summary';
  const o = t.burst.outcome;
  return `${o.kind} (${t.burst.key}, ${t.burst.measurements} burst${t.burst.measurements > 1 ? 's' : ''})${t.burst.waits.length ? `; WAITED: ${t.burst.waits.join('; ')}` : '; no wait'}`;
}
