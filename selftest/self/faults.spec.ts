/**
 * Every contract check is proven able to fail: each fault injected into the reference service must be
 * caught, on its clause (and its place, value class and status where it names them). The faults run in
 * batches (batch-plan.ts), each run limited to the tests that can catch its faults (test-selection.ts);
 * a fault its batch did not catch is run again alone, with all of its files, before it counts as a
 * survivor. Each test attaches its faults' outcomes; the kill ratio reporter counts them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runSuite, type SuiteRun } from '../../support/run/suite-runner';
import { baselineTried } from './baseline';
import type { Batch } from './batch-plan';
import { judge, OUTCOMES_ATTACHMENT, stateBroken, survivorLines, type FaultOutcome } from './catching';
import { BATCHES } from './fault-catalogue';
import type { FaultCase } from './fault-cases';
import { knownReason } from './known-survivors';
import { testsForAll } from './test-selection';

/** A run of the suite on a loaded machine; a batch's test also has room for its faults run again alone. */
const RUN_LIMIT_MS = 240_000;

/**
 * The burst is the contract project's teardown: a run that needs it keeps the dependency (it then runs
 * whole, after the other tests, as in a user's run), the others drop it.
 */
const needsBurst = (files: string[]) => files.some((f) => f.includes('rate-limit-burst'));
const depsArgs = (files: string[]) => (needsBurst(files) ? files : ['--no-deps', ...files]);

/**
 * One run of the suite with these faults: limited to the tests that can catch them when there is a
 * baseline to pick from (`selected`), else every test of their files. Failed checks are expected in it
 * (no new worker per failed test), except for a fault that stops the run: that one is judged by its
 * exit code and text, as a user meets it.
 */
async function runFaults(
  cases: FaultCase[],
  files: string[],
  env: Record<string, string> | undefined,
  select: boolean,
): Promise<SuiteRun & { selected: boolean }> {
  const fault = cases.map((c) => c.fault).join(',');
  if (cases.some((c) => c.stops)) return { ...(await runSuite({ fault, args: depsArgs(files), env, timeoutMs: RUN_LIMIT_MS })), selected: false };
  const baseline = select ? baselineTried() : undefined;
  if (!baseline)
    return { ...(await runSuite({ fault, args: depsArgs(files), env, workers: 1, failuresExpected: true, timeoutMs: RUN_LIMIT_MS })), selected: false };
  const dir = mkdtempSync(join(tmpdir(), 'contract-selftest-list-'));
  try {
    const list = join(dir, 'tests.txt');
    writeFileSync(list, `${testsForAll(cases, baseline).join('\n')}\n`);
    const args = [...(needsBurst(files) ? [] : ['--no-deps']), '--test-list', list];
    return { ...(await runSuite({ fault, args, env, workers: 1, failuresExpected: true, timeoutMs: RUN_LIMIT_MS })), selected: true };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A fault string cut short: the test title names the run, the outcomes carry the whole strings. */
const short = (fault: string) => {
  const text = decodeURIComponent(fault);
  return text.length > 48 ? `${text.slice(0, 45)}…` : text;
};

const title = (b: Batch) => {
  const names = b.cases.map((c) => short(c.fault));
  return `faults ${b.id}${b.alone ? ' (alone)' : ` (${names.length})`}: ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''}`;
};

// Largest first: a batch's run grows with its faults (see self.config.ts).
for (const batch of [...BATCHES].sort((a, b) => b.cases.length - a.cases.length)) {
  test(title(batch), async ({}, info) => {
    // Room for every member to run again alone (a safety net: most batches take a fraction of one run).
    test.setTimeout(RUN_LIMIT_MS * (1 + batch.cases.length) + 30_000);
    const run = await runFaults(batch.cases, batch.files, batch.env, true);
    const outcomes: FaultOutcome[] = batch.cases.map((c) => judge(c, run, batch.alone ? 'alone' : 'batch', batch.cases.length > 1));
    // Cells that shared the stored check count only if the check was restored; otherwise each runs alone.
    const distrust = batch.shared && stateBroken(run, batch.cases);
    // Missed in a batch, or in a run of some of its tests: alone with all of its files is what decides
    // (neither a batch nor the selection of tests ever makes a survivor).
    const decided = batch.cases.length === 1 && !run.selected;
    for (const [i, c] of batch.cases.entries()) {
      if ((outcomes[i].caught && !distrust) || decided) continue;
      outcomes[i] = judge(c, await runFaults([c], c.files, c.env, false), 'again alone');
    }
    for (const [i, o] of outcomes.entries()) if (!o.caught) o.known = knownReason(batch.cases[i]);
    await info.attach(OUTCOMES_ATTACHMENT, { body: JSON.stringify(outcomes), contentType: 'application/json' });
    const survivors = outcomes.filter((o) => !o.caught && !o.known);
    expect(
      survivors.flatMap(survivorLines).join('\n'),
      `${survivors.length} fault(s) not caught (run: ${run.ms} ms, exit ${run.exitCode})\n${run.output.slice(-1500)}`,
    ).toBe('');
  });
}
