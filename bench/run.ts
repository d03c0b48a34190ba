/**
 * `npm run bench`: is the suite fast where it can be?
 *
 * 1. Burst rate: the suite's burst and autocannon on the same endpoint, same concurrency (bench/burst-rate.ts).
 * 2. The whole default run (`npx playwright test`, cold start to exit) under each correct setting of the
 *    embedded service (fixed or sliding window; refused requests counted or not: the document does not
 *    say), side by side with the floor (a bare Playwright run of one trivial API test), each with what
 *    its burst decided and whether it waited a window; the run against a target that counts refused
 *    requests differently from the embedded default, divided by the default's (target <= 1.2).
 * 3. Against a reference started once (a "remote" target): with one key only (the burst shares the
 *    contract tests' window) beside two keys; and a second run right after the first (a window the
 *    first one used), with the wait it made and why.
 * 4. Against a reference 100 ms away (a latency proxy in front of it), one key: a staging far from CI.
 * 5. What Playwright's public `test` would cost each test over the root test the fixtures build on (bench/fixture-cost.ts).
 *
 *   npm run bench [-- --seconds 3 --concurrency 16 --rounds 3 --runs 1 --rtt 100
 *                     --skip-rates --skip-suite --skip-remote --skip-distant --skip-fixtures]
 */
import { BURST_CONCURRENCY } from '../support/rate-limit/burst';
import { EMBEDDED } from '../support/run/config';
import { TEST_FILES } from '../support/run/test-files';
import { RATE_LIMIT_SETTINGS } from '../selftest/faults/generated/rate-limit';
import { measureRates, TARGET_RATIO } from './burst-rate';
import { startReference } from './reference-process';
import { startLatencyProxy } from './latency-proxy';
import { fixtureCost } from './fixture-cost';
import { burstText, median, seconds, timedRun, type Timed } from './timed-runs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TARGET_REFUSED_RATIO = 1.2;

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
}
const flag = (name: string) => process.argv.includes(`--${name}`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const out = (line = '') => process.stdout.write(`${line}\n`);

async function rates(): Promise<void> {
  const [secs, concurrency, rounds] = [option('seconds', 3), option('concurrency', BURST_CONCURRENCY), option('rounds', 3)];
  // A million per second: out of reach.
  const ref = await startReference({ RATE_LIMIT_MAX: '1000000', RATE_LIMIT_WINDOW_S: '1' });
  try {
    out(`burst rate: GET /v1/runtimes/{id} for ${secs} s per client and round, ${concurrency} connections each, ${ref.url}, ${rounds} rounds (median)`);
    const { suite, cannon } = await measureRates(ref.url, secs, concurrency, rounds);
    const ratio = median(suite) / median(cannon);
    out(`  suite burst (node:http): ${fmt(median(suite))} requests/s   [${suite.map(fmt).join(', ')}]`);
    out(`  autocannon:           ${fmt(median(cannon))} requests/s   [${cannon.map(fmt).join(', ')}]`);
    out(targetLine('ratio', ratio, TARGET_RATIO, 'at least'));
  } finally {
    ref.stop();
  }
}

async function repeat(n: number, make: () => Promise<Timed>): Promise<Timed[]> {
  const runs: Timed[] = [];
  for (let i = 0; i < n; i++) runs.push(await make());
  return runs;
}

/** "fixed, refused counted (the embedded default)" from a setting's environment. */
const shortLabel = (env: Record<string, string>) =>
  `${env.RATE_LIMIT_ALGORITHM ?? 'fixed'} window, refused ${env.RATE_LIMIT_COUNT_REFUSED === 'off' ? 'not counted' : 'counted'}${!env.RATE_LIMIT_ALGORITHM && env.RATE_LIMIT_COUNT_REFUSED !== 'off' ? ' (the default)' : ''}`;

const TARGET_FLOOR_RATIO = 2.5;

/** "<label>: 1.23 (target <= 2.5) ok", or the word that says on which side of the target it fell. */
const targetLine = (label: string, ratio: number, target: number, bound: 'at most' | 'at least') => {
  const met = bound === 'at most' ? ratio <= target : ratio >= target;
  return `  ${label}: ${ratio.toFixed(2)} (target ${bound === 'at most' ? '<=' : '>='} ${target}) ${met ? 'ok' : bound === 'at most' ? 'ABOVE TARGET' : 'BELOW TARGET'}`;
};

/** `floorMs` undefined: the floor was not measured (--skip-suite), and no multiple is shown. */
const row = (label: string, runs: Timed[], floorMs: number | undefined) => {
  const ms = median(runs.map((r) => r.ms));
  const failed = runs.filter((r) => r.exitCode !== 0).length;
  const multiple = floorMs === undefined ? '' : `${(ms / floorMs).toFixed(2)}×`;
  return `  ${label.padEnd(56)} ${seconds(ms).padStart(7)}  ${multiple.padStart(6)}  ${failed ? `${failed} FAILED; ` : ''}${burstText(runs[runs.length - 1])}`;
};

async function settings(runs: number): Promise<number> {
  out(`\nwhole default run: ${runs} × each, cold start to exit (median); × = the floor's multiple`);
  // The floor's runs alternate with the default's: this machine's speed drifts over a minute, and the
  // ratio of the two is the figure that counts.
  const [defaultSetting, ...others] = RATE_LIMIT_SETTINGS.filter((x) => x.noWait && !x.fault && !x.twice);
  const floor: Timed[] = [];
  const defaults: Timed[] = [];
  for (let i = 0; i < runs; i++) {
    floor.push(await timedRun({}, ['--config', 'bench/floor/playwright.config.ts']));
    defaults.push(await timedRun(defaultSetting.env));
  }
  const floorMs = median(floor.map((r) => r.ms));
  out(`  ${'floor (one trivial API test)'.padEnd(56)} ${seconds(floorMs).padStart(7)}`);
  out(row(shortLabel(defaultSetting.env), defaults, floorMs));
  const othersRuns: Timed[][] = [];
  for (const s of others) {
    othersRuns.push(await repeat(runs, () => timedRun(s.env)));
    out(row(shortLabel(s.env), othersRuns[othersRuns.length - 1], floorMs));
  }
  const msOf = (runs: Timed[]) => median(runs.map((r) => r.ms));
  out(targetLine('the default run / the floor', msOf(defaults) / floorMs, TARGET_FLOOR_RATIO, 'at most'));
  // The default's window with refused requests not counted: the target that counts them differently.
  const notCounted = others.findIndex((o) => o.env.RATE_LIMIT_COUNT_REFUSED === 'off' && !o.env.RATE_LIMIT_ALGORITHM);
  out(
    targetLine(
      'refused requests not counted / counted (the embedded default), fixed window',
      msOf(othersRuns[notCounted]) / msOf(defaults),
      TARGET_REFUSED_RATIO,
      'at most',
    ),
  );
  const requests = defaults[defaults.length - 1].requests;
  if (requests) {
    const families = Object.entries(requests)
      .filter(([k]) => k !== 'total')
      .sort((a, b) => b[1] - a[1]);
    out(`  requests sent by the default run: ${requests.total} (${families.map(([k, n]) => `${k} ${n}`).join(', ')})`);
  }
  return floorMs;
}

/** A reference started once, tested as a remote target: the suite knows only what BASE_URL and the keys say. */
async function remote(
  env: Record<string, string>,
  keys: 'one' | 'two',
  args: string[] = [],
  reportDir?: string,
  service?: Awaited<ReturnType<typeof startReference>>,
): Promise<Timed> {
  const ref = service ?? (await startReference(env));
  try {
    return await timedRun(
      {
        ...env,
        BASE_URL: ref.url,
        API_KEY: EMBEDDED.apiKey,
        ACCOUNT_ID: EMBEDDED.accountId,
        CHECK_ID: EMBEDDED.checkId,
        BROWSER_CHECK_ID: EMBEDDED.browserCheckId,
        ...(keys === 'two' ? { SECOND_API_KEY: EMBEDDED.secondApiKey, SECOND_ACCOUNT_ID: EMBEDDED.secondAccountId } : {}),
      },
      args,
      reportDir,
    );
  } finally {
    if (!service) ref.stop();
  }
}

async function remotes(runs: number, floorMs: number | undefined): Promise<void> {
  out(`\nagainst a reference started once (BASE_URL), refused requests not counted: ${runs} × each (median)`);
  const off = { RATE_LIMIT_COUNT_REFUSED: 'off' };
  const two = await repeat(runs, () => remote(off, 'two'));
  out(row('two keys (the burst spends SECOND_API_KEY)', two, floorMs));
  const one = await repeat(runs, () => remote(off, 'one'));
  out(row("one key (the burst shares the contract tests' window)", one, floorMs));
  out(`  one key / two keys: ${(median(one.map((r) => r.ms)) / median(two.map((r) => r.ms))).toFixed(2)}`);

  const windowS = '20';
  out(`\na second run right after the first, same reference and report folder (RATE_LIMIT_WINDOW_S=${windowS}, the burst file alone)`);
  const env = { RATE_LIMIT_WINDOW_S: windowS };
  const ref = await startReference(env);
  const dir = mkdtempSync(join(tmpdir(), 'contract-bench-twice-'));
  try {
    const first = await remote(env, 'two', [TEST_FILES.burst], dir, ref);
    out(row('first run', [first], floorMs));
    const second = await remote(env, 'two', [TEST_FILES.burst], dir, ref);
    out(row('second run, right after', [second], floorMs));
  } finally {
    ref.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const TARGET_DISTANT_S = 20;

/** The default run against a reference `rttMs` away, one key, rate-limit headers sent (the reference's default). */
async function distant(runs: number, rttMs: number, floorMs: number | undefined): Promise<void> {
  out(`\nagainst a reference ${rttMs} ms away (a latency proxy in front of it), one key: ${runs} × (median)`);
  // A reference of its own per run: one key's burst leaves its window spent for the next run.
  const once = async (): Promise<Timed> => {
    const ref = await startReference({});
    const proxy = await startLatencyProxy(ref.url, rttMs);
    try {
      return await remote({}, 'one', [], undefined, { url: proxy.url, stop: () => undefined });
    } finally {
      await proxy.stop();
      ref.stop();
    }
  };
  const timed = await repeat(runs, once);
  const requests = timed[timed.length - 1].requests?.total;
  out(`${row(`${rttMs} ms round trip, one key`, timed, floorMs)}${requests ? `; ${requests} requests` : ''}`);
  if (rttMs === 100) out(targetLine('seconds at 100 ms', median(timed.map((r) => r.ms)) / 1000, TARGET_DISTANT_S, 'at most'));
}

async function main(): Promise<void> {
  const runs = option('runs', 1);
  if (!flag('skip-rates')) await rates();
  const floorMs = flag('skip-suite') ? undefined : await settings(runs);
  if (!flag('skip-remote')) await remotes(runs, floorMs);
  if (!flag('skip-distant')) await distant(runs, option('rtt', 100), floorMs);
  if (!flag('skip-fixtures')) await fixtureCost(Math.max(3, runs), out);
}

main().catch((e) => {
  process.stderr.write(`bench: ${(e as Error).message}\n`);
  process.exit(1);
});
