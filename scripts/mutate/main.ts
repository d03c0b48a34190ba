/**
 * npm run mutate [-- --mutate <glob or file:lines>[,…]] [--incremental] [--concurrency <n>] [--summary-only]
 *
 * Mutation testing of the reference service and agent (stryker.config.mjs): every mutant is run against
 * the default contract run and killed when it fails. Prints the score and writes reports/mutation/:
 * summary.md (score, survivors, code a default run never reaches), mutation.json and mutation.html.
 *
 * --mutate narrows the mutated code to part of reference/service or reference/agent (the default is all
 * of both). --incremental reuses the results of the last run of the same scope whose suite (tests/,
 * support/, reporters/, the configuration, the lock file) was the same: Stryker sees which mutants the
 * reference's changes touch, but not a change of the suite, so each suite has a file of its own.
 * --summary-only writes summary.md again from the last mutation.json, running nothing.
 * One mutation run at a time per machine (a lock in the temporary folder): each takes every core it is given.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CONFIG_VARIABLES } from '../../support/run/config';
import { readRows, writeSummary } from './summary';

const ROOT = join(__dirname, '../..');
const OUT = join(ROOT, 'reports/mutation');
const SCOPE = /^reference\/(service|agent)\//;
const LOCK = join(tmpdir(), 'contract-suite-mutate.lock');
/** What the contract run is: a change in any of these is a new suite, whose results are not reused. */
const SUITE = ['tests', 'support', 'reporters', 'playwright.config.ts', 'package-lock.json', 'stryker.config.mjs', 'scripts/mutate'];

function usage(message: string): never {
  process.stderr.write(`mutate: ${message}\nusage: npm run mutate -- [--mutate 'reference/service/checks/**'] [--incremental] [--concurrency 2]\n`);
  process.exit(2);
}

const filesOf = (path: string): string[] =>
  statSync(path).isDirectory()
    ? readdirSync(path)
        .sort()
        .flatMap((e) => filesOf(join(path, e)))
    : [path];

function suiteKey(mutate: string[]): string {
  const hash = createHash('sha256').update(mutate.join('\n'));
  for (const file of SUITE.flatMap((p) => filesOf(join(ROOT, p)))) hash.update(file).update(readFileSync(file));
  return hash.digest('hex').slice(0, 12);
}

/** Takes the machine-wide lock, or says who holds it. */
function lock(): () => void {
  try {
    const fd = openSync(LOCK, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
  } catch {
    const holder = Number(readFileSync(LOCK, 'utf8'));
    let alive = true;
    try {
      process.kill(holder, 0);
    } catch {
      alive = false;
    }
    if (alive) usage(`another mutation run (pid ${holder}) is under way; one at a time`);
    rmSync(LOCK, { force: true });
    return lock();
  }
  return () => rmSync(LOCK, { force: true });
}

async function main() {
  const { values } = parseArgs({
    options: {
      mutate: { type: 'string', multiple: true },
      incremental: { type: 'boolean' },
      concurrency: { type: 'string' },
      'summary-only': { type: 'boolean' },
    },
  });
  const chosen = values.mutate?.flatMap((m) => m.split(',')).filter(Boolean);
  for (const m of chosen ?? []) if (!SCOPE.test(m)) usage(`--mutate ${m}: only reference/service/ and reference/agent/ are mutated`);
  const concurrency = Number(values.concurrency ?? 2);
  if (!Number.isInteger(concurrency) || concurrency < 1) usage(`--concurrency ${values.concurrency}: a whole number from 1`);

  // The default contract run: no target, no fault, no waivers, whatever this shell has set.
  for (const name of [...CONFIG_VARIABLES, 'MOCK_FAULT']) delete process.env[name];
  const { default: config } = (await import(join(ROOT, 'stryker.config.mjs'))) as { default: { mutate: string[] } };
  // A chosen part keeps the configuration's exclusions.
  const mutate = chosen ? [...chosen, ...config.mutate.filter((m) => m.startsWith('!'))] : config.mutate;
  mkdirSync(OUT, { recursive: true });
  const started = Date.now();
  if (!values['summary-only']) await mutationRun(mutate, concurrency, Boolean(values.incremental));
  const json = join(OUT, 'mutation.json');
  if (!existsSync(json)) usage('Stryker wrote no report');
  const rows = readRows(json, ROOT);
  const ran = rows.filter((r) => ['Killed', 'Survived', 'Timeout', 'RuntimeError'].includes(r.status)).length;
  const minutes = values['summary-only'] ? undefined : Math.round((Date.now() - started) / 6000) / 10;
  const mutated = values['summary-only'] ? [...new Set(rows.map((r) => r.file))] : mutate;
  const score = writeSummary(join(OUT, 'summary.md'), rows, { mutate: mutated, minutes, concurrency, ran });
  process.stdout.write(
    `\nmutation score ${score.score} % (${score.coveredScore} % of the mutants a default run executes); ` +
      `${score.counts.Survived ?? 0} survived, ${score.counts.NoCoverage ?? 0} not reached; ${ran} results` +
      `${minutes === undefined ? '' : ` in ${minutes} min`}\nsummary: reports/mutation/summary.md, report: reports/mutation/mutation.html\n`,
  );
}

async function mutationRun(mutate: string[], concurrency: number, incremental: boolean) {
  const unlock = lock();
  try {
    const { Stryker } = await import('@stryker-mutator/core');
    await new Stryker({
      mutate,
      concurrency,
      incremental,
      incrementalFile: join(OUT, `incremental-${suiteKey(mutate)}.json`),
    }).runMutationTest();
  } finally {
    unlock();
  }
}

main().catch((e) => {
  process.stderr.write(`mutate: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
