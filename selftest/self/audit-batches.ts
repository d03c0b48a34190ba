/**
 * A check of the batch plan's reach table, by hand: runs faults alone (all of their files, the way a
 * batch's miss is decided) and lists every fault that is not caught so. A fault the self-test counts as
 * caught in its batch but that is not caught alone was caught by another fault's doing: its reach in
 * fault-cases.ts is too narrow. Slow (one run per fault), so not part of `npm test`.
 *
 *   npx tsx selftest/self/audit-batches.ts               # the named faults (hand-written, independent)
 *   npx tsx selftest/self/audit-batches.ts generated 5   # every 5th generated fault
 *   npx tsx selftest/self/audit-batches.ts independent-6 # one list (a source of fault-cases.ts), all of it
 *
 * A named list is measured whole: its faults that always run alone (the rate limit's) too, which the
 * other modes leave out (their batch is a run alone already, so there is no reach to check).
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSuite } from '../../scripts/suite-runner';
import { judge } from './catching';
import { FAULT_CASES } from './fault-catalogue';
import { describeCatch } from './fault-cases';
import type { KillRatio } from './kill-ratio-reporter';
import { writeWaiveAll } from './fault-run/waive-all';
import { faultRunEnv } from './fault-run/window';

/** The faults the last self-test did not count as caught (its kill-ratio.json), if there was one. */
function lastUncaught(): Set<string> | undefined {
  try {
    const k = JSON.parse(readFileSync(join(__dirname, '../../reports/self-test/kill-ratio.json'), 'utf8')) as KillRatio;
    return new Set([...k.survivors, ...k.known].map((o) => o.fault).concat(k.notRun));
  } catch {
    return undefined;
  }
}

const PARALLEL_RUNS = 3;

async function main(): Promise<void> {
  const [which = 'named', every = '1'] = process.argv.slice(2);
  const step = Math.max(1, Number(every));
  const inList = (c: (typeof FAULT_CASES)[number]) => (which === 'named' ? c.source !== 'generated' : c.source === which);
  const wholeList = which !== 'named' && which !== 'generated';
  const pool = FAULT_CASES.filter((c) => (wholeList || !c.reach.includes('alone')) && inList(c));
  const cases = pool.filter((_, i) => i % step === 0);
  process.stdout.write(`${cases.length} of ${pool.length} ${which} faults, each alone\n`);
  const missed: string[] = [];
  const uncaught = lastUncaught();
  const waivers = writeWaiveAll(join(tmpdir(), `contract-audit-waive-all-${process.pid}.json`));
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      const run = await runSuite({ fault: c.fault, args: c.files, env: { ...faultRunEnv(c.env), WAIVERS_FILE: waivers }, workers: 1 });
      const o = judge(c, run, 'alone');
      const flag = uncaught && !uncaught.has(c.fault) ? " ← the last self-test counted it caught: its batch caught it by another fault's doing" : '';
      if (!o.caught) missed.push(`${c.fault} (${c.source}): ${o.missing.map(describeCatch).join('; ')}${flag}`);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_RUNS }, worker));
  process.stdout.write(missed.length ? `not caught alone (${missed.length}):\n${missed.map((m) => `  ${m}`).join('\n')}\n` : 'every one caught alone\n');
}

main().catch((e) => {
  process.stderr.write(`audit: ${(e as Error).message}\n`);
  process.exit(1);
});
