/**
 * Runs the default contract run (`npx playwright test`) N times in a row with the given environment and
 * prints the tally: the evidence that the suite does not flake (the issue asks for 20 green runs with a
 * fixed and with a sliding window).
 *
 *   npx tsx scripts/repeat-runs.ts --runs 20 --env RATE_LIMIT_ALGORITHM=sliding [--bail] [-- <playwright args>]
 *
 * Each run writes its reports to a temporary folder, kept only when the run failed. Exit code 0 only if
 * every run passed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Matrix } from '../reporters/matrix-types';

interface Options {
  runs: number;
  env: Record<string, string>;
  bail: boolean;
  args: string[];
}

function parseArgs(argv: string[]): Options {
  const options: Options = { runs: 20, env: {}, bail: false, args: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      options.args = argv.slice(i + 1);
      break;
    } else if (a === '--runs') options.runs = Number(argv[++i]);
    else if (a === '--env') {
      const [k, ...v] = (argv[++i] ?? '').split('=');
      options.env[k] = v.join('=');
    } else if (a === '--bail') options.bail = true;
    else throw new Error(`unknown argument ${a}; usage: repeat-runs.ts --runs N --env K=V [--bail] [-- <playwright args>]`);
  }
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error('--runs must be a whole number >= 1');
  return options;
}

interface RunResult {
  exitCode: number | null;
  ms: number;
  failed: string[];
  summary?: Matrix['summary'];
  reportDir: string;
  tail: string;
}

async function runOnce(options: Options): Promise<RunResult> {
  const reportDir = mkdtempSync(join(tmpdir(), 'contract-repeat-'));
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, REPORT_DIR: reportDir, FORCE_COLOR: '0' };
  for (const k of Object.keys(env)) if (k.startsWith('CONTRACT_')) delete env[k];
  const started = Date.now();
  const child = spawn('npx', ['playwright', 'test', ...options.args], { cwd: join(__dirname, '..'), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exitCode = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const ms = Date.now() - started;
  let matrix: Matrix | undefined;
  try {
    matrix = JSON.parse(readFileSync(join(reportDir, 'contract-matrix.json'), 'utf8'));
  } catch {
    matrix = undefined;
  }
  const failed = matrix?.clauses.filter((c) => c.status === 'failed').map((c) => c.id) ?? [];
  if (exitCode === 0) rmSync(reportDir, { recursive: true, force: true });
  return { exitCode, ms, failed, summary: matrix?.summary, reportDir, tail: output.slice(-3000) };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const label = Object.entries(options.env).map(([k, v]) => `${k}=${v}`).join(' ') || '(default environment)';
  process.stdout.write(`repeat-runs: ${options.runs} × npx playwright test ${options.args.join(' ')} with ${label}\n`);
  const results: RunResult[] = [];
  for (let i = 1; i <= options.runs; i++) {
    const r = await runOnce(options);
    results.push(r);
    const s = r.summary;
    const clauses = s ? `${s.verified} verified, ${s.failed} failed${r.failed.length ? ` (${r.failed.join(', ')})` : ''}, ${s.skipped} skipped` : 'no contract matrix';
    process.stdout.write(`run ${String(i).padStart(2)}/${options.runs}: ${r.exitCode === 0 ? 'passed' : `FAILED (exit ${r.exitCode})`} in ${(r.ms / 1000).toFixed(1)} s; ${clauses}\n`);
    if (r.exitCode !== 0) {
      process.stdout.write(`  reports kept in ${r.reportDir}\n${r.tail.split('\n').map((l) => `  | ${l}`).join('\n')}\n`);
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
