/**
 * `npm run bench`: is the suite fast where it can be?
 *
 * 1. Burst rate: the reference service on a free loopback port with a limit nobody reaches; the suite's
 *    burst (support/rate-limit/burst.ts) and autocannon hit the same endpoint with the same concurrency, in turns,
 *    in this one run. Prints both rates and their ratio (target: >= 0.7).
 * 2. The whole default run (`npx playwright test`, cold start to exit): its time against the floor, a
 *    bare Playwright run of one trivial API test (bench/floor/), and how many requests it sends per
 *    clause family (from its contract-matrix.json).
 *
 *   npm run bench [-- --seconds 3 --concurrency 16 --rounds 3 --runs 2 --skip-suite]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { burst, BURST_CONCURRENCY, burstTarget } from '../support/rate-limit/burst';
import { EMBEDDED } from '../support/run/config';
import { DEFAULT_ACCOUNT_HEADER, RUNTIME_VERSIONS } from '../support/document/facts';
import type { Matrix } from '../reporters/matrix-types';

const ROOT = join(__dirname, '..');
const TARGET_RATIO = 0.7;

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

// A million per second: out of reach (a million per minute is used up in 20 s at 50,000 requests/s).
async function startReference(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'reference/service/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_MAX: '1000000', RATE_LIMIT_WINDOW_S: '1', MOCK_FAULT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the reference service did not start within 20 s')), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      if (String(d).includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`the reference service exited with ${code}`)));
  });
  return child;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

// Both clients run for the same time rather than the same count: autocannon only notices that an
// `amount` is done at its next one-second sample, which would make its rate look lower than it is.
async function measureRates(port: number, seconds: number, concurrency: number, rounds: number) {
  const path = `/v1/runtimes/${RUNTIME_VERSIONS[0]}`;
  const credentials = { apiKey: EMBEDDED.apiKey, accountId: EMBEDDED.accountId, accountHeader: DEFAULT_ACCOUNT_HEADER };
  // Not in the ledger: the bench is no contract run.
  const target = { ...burstTarget(`http://127.0.0.1:${port}`, path, credentials), ledger: false };
  const suiteRate = async (s = seconds) => {
    const run = await burst(target, { concurrency, maxRequests: Number.MAX_SAFE_INTEGER, deadlineMs: s * 1000 });
    const bad = run.replies.filter((r) => r.status !== 200).length;
    if (bad) throw new Error(`the burst got ${bad} answers other than 200: is the limit high enough?`);
    return run.replies.length / ((run.endedAt - run.startedAt) / 1000);
  };
  const cannonRate = async (s = seconds) => {
    const r = await autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: concurrency, duration: s, headers: target.headers });
    if (r.non2xx || r.errors) throw new Error(`autocannon got ${r.non2xx} non-2xx answers and ${r.errors} errors`);
    return r.requests.total / r.duration;
  };
  // Warm both clients and the server's JIT before anything is measured.
  await suiteRate(1);
  await cannonRate(1);
  const suite: number[] = [];
  const cannon: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate who goes first, so drift in the machine's load favours neither.
    if (i % 2 === 0) {
      suite.push(await suiteRate());
      cannon.push(await cannonRate());
    } else {
      cannon.push(await cannonRate());
      suite.push(await suiteRate());
    }
  }
  return { suite, cannon };
}

interface Timed {
  ms: number;
  exitCode: number | null;
  output: string;
}

async function timed(args: string[], env: NodeJS.ProcessEnv): Promise<Timed> {
  const started = Date.now();
  const child = spawn('npx', ['playwright', 'test', ...args], { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
  const exitCode = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  return { ms: Date.now() - started, exitCode, output };
}

async function measureRuns(runs: number) {
  const full: number[] = [];
  const floor: number[] = [];
  let requests: Record<string, number> | undefined;
  for (let i = 0; i < runs; i++) {
    const reportDir = mkdtempSync(join(tmpdir(), 'contract-bench-'));
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONTRACT_')));
    const f = await timed(['--config', 'bench/floor/playwright.config.ts'], { ...env, REPORT_DIR: reportDir });
    if (f.exitCode !== 0) throw new Error(`the floor run failed:\n${f.output.slice(-1500)}`);
    floor.push(f.ms);
    const run = await timed([], { ...env, REPORT_DIR: reportDir });
    if (run.exitCode !== 0) process.stdout.write(`  (default run ${i + 1} exited ${run.exitCode}; its reports: ${reportDir})\n`);
    full.push(run.ms);
    try {
      requests = (JSON.parse(readFileSync(join(reportDir, 'contract-matrix.json'), 'utf8')) as Matrix).requests;
    } catch {
      /* reported below */
    }
    if (run.exitCode === 0) rmSync(reportDir, { recursive: true, force: true });
  }
  return { full, floor, requests };
}

async function main(): Promise<void> {
  const seconds = option('seconds', 3);
  const concurrency = option('concurrency', BURST_CONCURRENCY);
  const rounds = option('rounds', 3);
  const runs = option('runs', 2);

  const port = await freePort();
  const service = await startReference(port);
  try {
    process.stdout.write(`burst rate: GET /v1/runtimes/{id} for ${seconds} s per client and round, ${concurrency} connections each, 127.0.0.1:${port}, ${rounds} rounds (median)\n`);
    const { suite, cannon } = await measureRates(port, seconds, concurrency, rounds);
    const ratio = median(suite) / median(cannon);
    process.stdout.write(`  suite burst (undici): ${fmt(median(suite))} requests/s   [${suite.map(fmt).join(', ')}]\n`);
    process.stdout.write(`  autocannon:           ${fmt(median(cannon))} requests/s   [${cannon.map(fmt).join(', ')}]\n`);
    process.stdout.write(`  ratio: ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? 'ok' : 'BELOW TARGET'}\n`);
  } finally {
    service.kill('SIGTERM');
  }

  if (process.argv.includes('--skip-suite')) return;
  process.stdout.write(`\nwhole run: ${runs} × (floor, then \`npx playwright test\`), cold start to exit (median)\n`);
  const { full, floor, requests: perFamily } = await measureRuns(runs);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  process.stdout.write(`  default run: ${s(median(full))}   [${full.map(s).join(', ')}]\n`);
  process.stdout.write(`  floor (one trivial API test): ${s(median(floor))}   [${floor.map(s).join(', ')}]\n`);
  process.stdout.write(`  ratio: ${(median(full) / median(floor)).toFixed(1)}×\n`);
  if (perFamily) {
    const families = Object.entries(perFamily).filter(([k]) => k !== 'total').sort((a, b) => b[1] - a[1]);
    process.stdout.write(`  requests sent by the default run: ${perFamily.total} (${families.map(([k, n]) => `${k} ${n}`).join(', ')})\n`);
  } else {
    process.stdout.write('  requests per family: no contract-matrix.json was written\n');
  }
}

main().catch((e) => {
  process.stderr.write(`bench: ${(e as Error).message}\n`);
  process.exit(1);
});
