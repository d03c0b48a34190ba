/**
 * The suite without faults, as a user runs it: it passes and verifies every clause. Its reports stay
 * (BASELINE_DIR): the fault runs pick their tests from what this run tried.
 */
import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { runSuite } from '../../support/run/suite-runner';
import { BASELINE_DIR } from './baseline';
import { testTimings, type TestTiming } from './html-report';
import { BURST_FILE } from '../../support/run/schedule';

test('with no fault, the whole suite passes and every clause is verified', async () => {
  rmSync(BASELINE_DIR, { recursive: true, force: true });
  // A short window, so that the recovery test (RL-5) runs too instead of waiting for @slow.
  const run = await runSuite({ env: { RATE_LIMIT_WINDOW_S: '5' }, reportDir: BASELINE_DIR });
  expect(run.exitCode, run.output.slice(-3000)).toBe(0);
  expect(run.matrix, 'contract-matrix.json was written').toBeDefined();
  const unverified = run.matrix!.clauses.filter((c) => c.status !== 'verified').map((c) => `${c.id}: ${c.status} ${c.reasons.join('; ')}`);
  expect(unverified).toEqual([]);
  // The tests that must come last (support/run/schedule.ts) started only once every other test had ended.
  const timings = testTimings(BASELINE_DIR);
  const isLast = (t: TestTiming) => BURST_FILE.test(t.file) || t.title.includes('and shutdown');
  const others = timings.filter((t) => !isLast(t));
  const last = timings.filter(isLast);
  expect(last.length, 'the burst and the agent shutdown test ran').toBeGreaterThanOrEqual(4);
  const othersEnd = Math.max(...others.map((t) => t.end));
  expect(last.filter((t) => t.start < othersEnd).map((t) => `${t.title} started ${othersEnd - t.start} ms before another test ended`)).toEqual([]);
});
