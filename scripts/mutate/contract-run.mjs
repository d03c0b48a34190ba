/**
 * A Stryker test runner: one default contract run (`npx playwright test` against the embedded reference,
 * WAIVERS_FILE=off, a REPORT_DIR of its own) per mutant; the mutant is killed when the run fails.
 *
 * Stryker's own command runner does the same but cannot say which mutants a run reaches. This one does:
 * in the initial run, every node process it starts loads coverage-preload.cjs, and the reference's
 * processes (service and agents, bundled from the instrumented sources) write the mutants they executed.
 * A mutant no default run executes is then NoCoverage instead of a 15-second run that cannot kill it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { INSTRUMENTER_CONSTANTS } from '@stryker-mutator/api/core';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import { DryRunStatus, TestStatus, toMutantRunResult } from '@stryker-mutator/api/test-runner';

/** The killing tests' lines and the run's last ones: the reason a killed mutant's report shows. */
const REASON_CHARS = 1500;
/** After the run exits, its service may still be writing its coverage (it exits when the runner's pipe closes). */
const COVERAGE_SETTLE_MS = 1000;

const reasonOf = (output) => {
  const lines = output.split('\n');
  const failed = lines.filter((l) => /^\s*(✘|\d+\) )|contract suite:|clauses:|Error:/.test(l));
  return (failed.length ? failed : lines.slice(-20)).join('\n').slice(0, REASON_CHARS);
};

class ContractRunTestRunner {
  static inject = [];
  /** The run in progress: killed, with its process group, when Stryker gives up on it (a timeout). */
  child;
  runs = 0;

  capabilities() {
    // Every run is a fresh set of processes.
    return { reloadEnvironment: true };
  }

  async dryRun() {
    const dir = mkdtempSync(join(tmpdir(), 'mutation-coverage-'));
    try {
      const preload = join(process.cwd(), 'scripts/mutate/coverage-preload.cjs');
      const result = await this.run({
        MUTATION_COVERAGE_DIR: dir,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(preload)}`.trim(),
      });
      await sleep(COVERAGE_SETTLE_MS);
      const covered = {};
      for (const file of readdirSync(dir)) {
        const { static: hits = {}, perTest = {} } = JSON.parse(readFileSync(join(dir, file), 'utf8'));
        for (const counts of [hits, ...Object.values(perTest)]) for (const [id, n] of Object.entries(counts)) covered[id] = (covered[id] ?? 0) + n;
      }
      return { ...result, mutantCoverage: { static: covered, perTest: {} } };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  async mutantRun({ activeMutant }) {
    return toMutantRunResult(await this.run({ [INSTRUMENTER_CONSTANTS.ACTIVE_MUTANT_ENV_VARIABLE]: activeMutant.id }, activeMutant.id));
  }

  /** One default contract run in the sandbox (the working directory), with `env` added. */
  run(env, name = 'dry-run') {
    const reportDir = join(process.cwd(), '.mutation-runs', `${process.pid}-${++this.runs}-${name}`);
    mkdirSync(reportDir, { recursive: true });
    const cli = createRequire(join(process.cwd(), 'package.json')).resolve('@playwright/test/cli');
    const started = Date.now();
    return new Promise((resolve) => {
      // Its own process group, so that a timeout ends the runner, its workers, the service and the agents at once.
      const child = spawn(process.execPath, [cli, 'test', '--max-failures=1'], {
        cwd: process.cwd(),
        env: { ...process.env, ...env, WAIVERS_FILE: 'off', REPORT_DIR: reportDir, FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      this.child = child;
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      const done = (code, error) => {
        this.child = undefined;
        rmSync(reportDir, { recursive: true, force: true });
        const test = { id: 'contract-run', name: 'the default contract run', timeSpentMs: Date.now() - started };
        if (error) return resolve({ status: DryRunStatus.Error, errorMessage: String(error) });
        resolve({
          status: DryRunStatus.Complete,
          tests: [
            code === 0 ? { ...test, status: TestStatus.Success } : { ...test, status: TestStatus.Failed, failureMessage: `exit ${code}\n${reasonOf(output)}` },
          ],
        });
      };
      child.on('error', (e) => done(undefined, e));
      child.on('exit', (code, signal) => done(code ?? signal));
    });
  }

  async dispose() {
    if (this.child?.pid) {
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'contract-run', ContractRunTestRunner)];
