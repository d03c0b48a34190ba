/**
 * Runs the default contract run N times in a row with the given environment and prints the tally: the
 * evidence that the suite does not flake (the issue asks for 20 green runs with a fixed and with a
 * sliding window). Each run goes through scripts/suite-runner.ts, as the self-test's do, and says
 * what its burst decided and whether it had to wait a window (rate-limit-burst.json).
 *
 *   npx tsx scripts/repeat-runs.ts --runs 20 --env RATE_LIMIT_ALGORITHM=sliding [--workers 4] [--bail] [-- <playwright args>]
 *
 * Each run writes its reports to a temporary folder, kept only when the run failed. Exit code 0 only if
 * every run passed.
 */
import { defaultWorkers } from '../support/run/config';
import { rmSync } from 'node:fs';
import { runSuite, failedClauses, type SuiteRun } from './suite-runner';
import { BURST_SUMMARY_FILE, readReport } from '../support/run/report-files';

interface Options {
  runs: number;
  env: Record<string, string>;
  workers: number;
  bail: boolean;
  args: string[];
}

function parseArgs(argv: string[]): Options {
  const options: Options = { runs: 20, env: {}, workers: defaultWorkers(true), bail: false, args: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      options.args = argv.slice(i + 1);
      break;
    } else if (a === '--runs') options.runs = Number(argv[++i]);
    else if (a === '--workers') options.workers = Number(argv[++i]);
    else if (a === '--env') {
      const [k, ...v] = (argv[++i] ?? '').split('=');
      options.env[k] = v.join('=');
    } else if (a === '--bail') options.bail = true;
    else
      throw new Error(
        `unknown argument ${a}; usage: repeat-runs.ts --runs N --env K=V [--workers N (default: the embedded run's)] [--bail] [-- <playwright args>]`,
      );
  }
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error('--runs must be a whole number >= 1');
  if (!Number.isInteger(options.workers) || options.workers < 1) throw new Error('--workers must be a whole number >= 1');
  return options;
}

function burstLine(run: SuiteRun): string {
  const s = readReport(run.reportDir, BURST_SUMMARY_FILE);
  if (!s) return 'no burst summary';
  return `burst ${s.outcome.kind} after ${s.measurements} measurement(s) with ${s.key}${s.waits.length ? `, waited: ${s.waits.join('; ')}` : ', no wait'}`;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const { MOCK_FAULT: fault, ...env } = options.env;
  const label =
    Object.entries(options.env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ') || '(default environment)';
  process.stdout.write(`repeat-runs: ${options.runs} × npx playwright test --workers=${options.workers} ${options.args.join(' ')} with ${label}\n`);
  const results: SuiteRun[] = [];
  for (let i = 1; i <= options.runs; i++) {
    const r = await runSuite({ fault, env, args: options.args, workers: options.workers, keepReports: true, timeoutMs: 600_000 });
    results.push(r);
    const s = r.matrix?.summary;
    const failed = failedClauses(r);
    const clauses = s
      ? `${s.verified} verified, ${s.failed} failed${failed.length ? ` (${failed.join(', ')})` : ''}, ${s.skipped} skipped`
      : 'no contract matrix';
    process.stdout.write(
      `run ${String(i).padStart(2)}/${options.runs}: ${r.exitCode === 0 ? 'passed' : `FAILED (exit ${r.exitCode})`} in ${(r.ms / 1000).toFixed(1)} s; ${clauses}; ${burstLine(r)}\n`,
    );
    if (r.exitCode === 0) rmSync(r.reportDir, { recursive: true, force: true });
    else {
      process.stdout.write(
        `  reports kept in ${r.reportDir}\n${r.output
          .slice(-3000)
          .split('\n')
          .map((l) => `  | ${l}`)
          .join('\n')}\n`,
      );
      if (options.bail) break;
    }
  }
  const passed = results.filter((r) => r.exitCode === 0).length;
  const times = results.map((r) => r.ms / 1000).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  process.stdout.write(
    `\ntally (${label}): ${passed} of ${results.length} runs passed, ${results.length - passed} failed; ` +
      `time per run: median ${median.toFixed(1)} s, min ${times[0].toFixed(1)} s, max ${times[times.length - 1].toFixed(1)} s\n`,
  );
  process.exit(passed === results.length ? 0 : 1);
}

main().catch((e) => {
  process.stderr.write(`repeat-runs: ${(e as Error).message}\n`);
  process.exit(2);
});
