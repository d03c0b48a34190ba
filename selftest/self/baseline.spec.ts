/**
 * The suite without faults, as a user runs it: it passes and verifies every clause. Its reports stay
 * (BASELINE_DIR): the fault runs pick their tests from what this run tried.
 */
import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { runSuite } from '../../support/run/suite-runner';
import { BASELINE_DIR } from './baseline';
import { testTimings, type TestTiming } from './html-report';
import { AGENT_FILE, BURST_FILE } from '../../support/run/schedule';

test('with no fault, the whole suite passes and every clause is verified', async () => {
  rmSync(BASELINE_DIR, { recursive: true, force: true });
  // A short window, so that the recovery test (RL-5) runs too instead of waiting for @slow.
  const run = await runSuite({ env: { RATE_LIMIT_WINDOW_S: '5' }, reportDir: BASELINE_DIR });
  expect(run.exitCode, run.output.slice(-3000)).toBe(0);
  expect(run.matrix, 'contract-matrix.json was written').toBeDefined();
  const unverified = run.matrix!.clauses.filter((c) => c.status !== 'verified').map((c) => `${c.id}: ${c.status} ${c.reasons.join('; ')}`);
  expect(unverified).toEqual([]);
  // The tests that must come last (support/run/schedule.ts) started only once every other test had ended,
  // and the agent's judgements (which send nothing to the target) after the burst.
  const timings = testTimings(BASELINE_DIR);
  const burst = timings.filter((t) => BURST_FILE.test(t.file));
  const judgements = timings.filter((t) => AGENT_FILE.test(t.file) && t.title.includes('AGENT_HEALTH_PORT'));
  const others = timings.filter((t) => !burst.includes(t) && !judgements.includes(t));
  expect(burst.length, 'the burst ran').toBeGreaterThanOrEqual(4);
  expect(judgements.length, "the agent's sessions were judged").toBe(2);
  const startedBefore = (tests: TestTiming[], end: number, what: string) =>
    tests.filter((t) => t.start < end).map((t) => `${t.title} started ${end - t.start} ms before ${what} ended`);
  expect(startedBefore([...burst, ...judgements], Math.max(...others.map((t) => t.end)), 'another test')).toEqual([]);
  expect(startedBefore(judgements, Math.max(...burst.map((t) => t.end)), 'the burst')).toEqual([]);
});
