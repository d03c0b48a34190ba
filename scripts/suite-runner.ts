/**
 * Runs the contract suite as a user would (`npx playwright test`), in a child process, against the
 * embedded reference service with optional injected faults, and returns what a user would see: the
 * exit code, the console output and the contract matrix; and what the checks found: every failure of
 * the run (failures.json, uncapped).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failureTitle, type Failure } from '../support/checks/failure';
import { readReport, REPORT_FILES, type Matrix } from '../support/run/report-files';
import { WAIVERS_OFF } from '../support/run/waivers-file';
import { EXIT_CONFIG_ERROR } from '../support/run/suite-error';
import { OUTSIDE_FAULTS_PLUGIN } from '../selftest/faults/outside/plugin';
import { AGENT_FAULTS_PLUGIN } from '../selftest/faults/outside/agent-plugin';

export interface SuiteRun {
  exitCode: number | null;
  output: string;
  /** contract-matrix.json, of a run that ran its tests. */
  matrix?: Matrix;
  /** Why the run stopped before any test, as contract-matrix.json says. */
  stoppedBefore?: { exitCode: number; reason: string };
  /** Every failure the checks made (and every test that failed before its checks); empty when none was written. */
  failures: Failure[];
  reportDir: string;
  ms: number;
  /** Killed at the time limit. */
  timedOut: boolean;
}

export interface RunOptions {
  /** MOCK_FAULT for the embedded service and agent (comma-separated for several). */
  fault?: string;
  /** Test files (or other CLI arguments) to limit the run to. */
  args?: string[];
  env?: Record<string, string | undefined>;
  /** A safety net against a run that hangs, not a budget: the self-test runs several at once. */
  timeoutMs?: number;
  /** Keep the report folder (the caller removes it). */
  keepReports?: boolean;
  /** Write the reports here (kept) instead of a temporary folder. */
  reportDir?: string;
  /** Workers of the child run; unset: the configuration's (playwright.config.ts), as a user gets. */
  workers?: number;
}

const ROOT = join(__dirname, '..');

export async function runSuite(options: RunOptions = {}): Promise<SuiteRun> {
  const reportDir = options.reportDir ?? mkdtempSync(join(tmpdir(), 'contract-selftest-'));
  const env: NodeJS.ProcessEnv = { ...process.env, REPORT_DIR: reportDir, FORCE_COLOR: '0', CI: '' };
  // The parent's own run settings must not leak into the child run.
  for (const k of Object.keys(env))
    if (k.startsWith('CONTRACT_') || k.startsWith('PW_') || k === 'TEST_WORKER_INDEX' || k === 'TEST_PARALLEL_INDEX') delete env[k];
  delete env.MOCK_FAULT;
  // The project's own waivers (contract-waivers.yaml) must not hide what a self-test run is there to
  // see; a caller that wants waivers (compare mode, a test of waivers) names its file.
  env.WAIVERS_FILE = WAIVERS_OFF;
  Object.assign(env, options.env ?? {});
  delete env.MOCK_FAULT;
  // The faults applied from outside the service and the agent come in through their plugin seams (selftest/faults/outside).
  if (options.fault) Object.assign(env, { MOCK_FAULT: options.fault, REFERENCE_PLUGINS: OUTSIDE_FAULTS_PLUGIN, AGENT_PLUGINS: AGENT_FAULTS_PLUGIN });
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const started = Date.now();
  const workers = options.workers ? [`--workers=${options.workers}`] : [];
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', ...workers, ...(options.args ?? [])], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    // Its workers, web server and agents too: killed alone, the runner would leave them holding ports.
    for (const pid of [...descendantsOf(child.pid), child.pid])
      try {
        if (pid) process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
  }, options.timeoutMs ?? 300_000);
  const exitCode = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  clearTimeout(timer);
  // A run stopped for its configuration writes nothing: what the folder holds is an earlier run's.
  const written = exitCode !== EXIT_CONFIG_ERROR;
  const read = written ? readReport(reportDir, REPORT_FILES.matrixJson) : undefined;
  const [matrix, stoppedBefore] = read && 'stopped' in read ? [undefined, read.stopped] : [read, undefined];
  const failures = (written && readReport(reportDir, REPORT_FILES.failures)) || [];
  if (!options.keepReports && !options.reportDir) rmSync(reportDir, { recursive: true, force: true });
  return { exitCode, output, matrix, stoppedBefore, failures, reportDir, ms: Date.now() - started, timedOut };
}

export const failedClauses = (run: SuiteRun) => run.matrix?.clauses.filter((c) => c.status === 'failed').map((c) => c.id) ?? [];

/** Each failure of the run, one line: clause, what failed, what was received (for an assertion's message). */
export const failureLines = (run: SuiteRun) =>
  run.matrix?.clauses.flatMap((c) => c.failures.map((f) => `${c.id}: ${failureTitle(f)} (received: ${f.received})`)) ?? [];

/** Every process below `pid` (ps; none where ps is missing): deepest first. */
export function descendantsOf(pid: number | undefined): number[] {
  if (!pid) return [];
  let table: string;
  try {
    table = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const line of table.trim().split('\n')) {
    const [p, pp] = line.trim().split(/\s+/).map(Number);
    children.set(pp, [...(children.get(pp) ?? []), p]);
  }
  const below = (p: number): number[] => (children.get(p) ?? []).flatMap((c) => [...below(c), c]);
  return below(pid);
}
