/**
 * Every contract check is proven able to fail: each fault injected into the reference service must be
 * caught, on its clause (and its place, value class and status where it names them). The faults run in
 * batches (batch-plan.ts), each batch a faulty target of its own, all of them in one Playwright run
 * (fault-run/), each limited to the tests that can catch its faults (test-selection.ts). A fault its
 * batch did not catch runs again alone, with all of its files, before it counts as a survivor: those
 * too in one run. Each test attaches its faults' outcomes; the kill ratio reporter counts them.
 */
import { expect, test } from '@playwright/test';
import { runSuite, type SuiteRun } from '../../scripts/suite-runner';
import { baselineTried } from './baseline';
import type { Batch } from './batch-plan';
import { judge, OUTCOMES_ATTACHMENT, stateBroken, survivorLines, type FaultOutcome } from './catching';
import { batches } from './fault-catalogue';
import type { FaultCase } from './fault-cases';
import { runTargets, type TargetSpec } from './fault-run/run-targets';
import { faultRunEnv } from './fault-run/window';
import { knownReason } from './known-survivors';
import { isAgentFault, Prober } from './probe';
import { testsForAll } from './test-selection';
import { TEST_FILES } from '../../support/run/test-files';

/** A safety net against a run that hangs, not a budget. */
const RUN_LIMIT_MS = 240_000;
const MANY_LIMIT_MS = 900_000;
/** Workers of the run of many targets: more than the cores, as many tests wait (agents' drains, windows). */
const WORKERS = 8;

const faultOf = (cases: FaultCase[]) => cases.map((c) => c.fault).join(',');

/** A run of its own, with all of the fault's files, judged as a user meets it. */
const runAlone = (c: FaultCase): Promise<SuiteRun> => runSuite({ fault: c.fault, args: c.files, env: faultRunEnv(c.env), timeoutMs: RUN_LIMIT_MS });

async function attachAndExpect(outcomes: FaultOutcome[], cases: FaultCase[], run: { ms: number; output: string }): Promise<void> {
  // A survivor of the service is probed: a miss of the suite, or a fault that breaks nothing (which no list may keep).
  const prober = new Prober();
  for (const [i, o] of outcomes.entries())
    if (!o.caught) {
      o.known = knownReason(cases[i]);
      if (!isAgentFault(o.fault)) o.breaksReference = await prober.changesAnswers(o.fault, cases[i].env);
    }
  await test.info().attach(OUTCOMES_ATTACHMENT, { body: JSON.stringify(outcomes), contentType: 'application/json' });
  const survivors = outcomes.filter((o) => !o.caught && (!o.known || o.breaksReference === false));
  expect(survivors.flatMap(survivorLines).join('\n'), `${survivors.length} fault(s) not caught (run: ${run.ms} ms)\n${run.output.slice(-1500)}`).toBe('');
}

/**
 * The batches that start agents spread evenly among the others: agents of different targets meet on the
 * agent's default port, which only one can hold at a time (the others wait for it).
 */
function spreadAgents(batches: Batch[]): Batch[] {
  const agents = batches.filter((b) => b.files.includes(TEST_FILES.agent));
  const others = batches.filter((b) => !agents.includes(b));
  const out: Batch[] = [];
  const every = (others.length + 1) / (agents.length + 1);
  let a = 0;
  for (const [i, b] of others.entries()) {
    out.push(b);
    while (a < agents.length && (a + 1) * every <= i + 1) out.push(agents[a++]);
  }
  return [...out, ...agents.slice(a)];
}

/** The window of a batch whose burst waits out windows of its own setting (the recovery test runs below the fault runs' window). */
const ownWindow = (b: Batch) => (b.files.includes(TEST_FILES.burst) && Number(b.env?.RATE_LIMIT_WINDOW_S)) || 0;

/**
 * Those batches first, the longest windows first: a recovery waits several windows, and
 * started late it ends the run alone while the other workers have nothing left.
 */
const windowsFirst = (batches: Batch[]) => [...batches].sort((a, b) => ownWindow(b) - ownWindow(a));

const running = windowsFirst(spreadAgents(batches()));

test(`the faults, in ${running.length} batches, are each caught on their clause`, async () => {
  test.setTimeout(2 * MANY_LIMIT_MS + RUN_LIMIT_MS + 60_000);
  const baseline = baselineTried();
  const name = (b: Batch) => `b${b.id}`;
  const batchRuns = await runTargets(
    running.map((b): TargetSpec => ({ name: name(b), fault: faultOf(b.cases), env: b.env, files: b.files, tests: baseline && testsForAll(b.cases, baseline) })),
    { workers: WORKERS, timeoutMs: MANY_LIMIT_MS },
  );
  const cases = running.flatMap((b) => b.cases);
  const outcomes = new Map<FaultCase, FaultOutcome>();
  const again: FaultCase[] = [];
  for (const b of running) {
    const run = batchRuns.get(name(b))!;
    // Cells that shared the stored check count only if the check was restored; otherwise each runs alone.
    const distrust = !!run.stopped || (b.shared && stateBroken(run, b.cases));
    // Alone with all of its files (no baseline to select from) is what decides; anything less is run again.
    const decided = b.cases.length === 1 && !baseline && !run.stopped;
    for (const c of b.cases) {
      const o = judge(c, run, b.alone ? 'alone' : 'batch', b.cases.length > 1);
      outcomes.set(c, o);
      if ((!o.caught || distrust) && !decided) again.push(c);
    }
  }
  if (again.length) {
    const aloneName = (i: number) => `a${i + 1}`;
    const aloneRuns = await runTargets(
      again.map((c, i): TargetSpec => ({ name: aloneName(i), fault: c.fault, env: c.env, files: c.files })),
      // A few targets, each its own worker: nothing else is left to run by now, and one round is quicker than two.
      { workers: Math.min(Math.max(WORKERS, again.length), 2 * WORKERS), timeoutMs: MANY_LIMIT_MS },
    );
    for (const [i, c] of again.entries()) {
      const run = aloneRuns.get(aloneName(i))!;
      // A target that stopped here stops a run of its own too: judged as a user meets it.
      outcomes.set(c, judge(c, run.stopped ? await runAlone(c) : run, 'again alone'));
    }
  }
  const any = [...batchRuns.values()][0];
  await attachAndExpect(
    cases.map((c) => outcomes.get(c)!),
    cases,
    { ms: any?.ms ?? 0, output: any?.output ?? '' },
  );
});
