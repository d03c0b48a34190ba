/**
 * The recovery (RL-5) without faults: the baseline runs with the fault runs' window, too long for it to
 * run there, so it runs here with a short one, beside the fault runs.
 */
import { expect, test } from '@playwright/test';
import { runSuite } from '../../scripts/suite-runner';
import { TEST_FILES } from '../../support/run/test-files';
import { RECOVERY_CLAUSE } from './recovery';
import { BURST_TARGET_LIMIT } from './fault-run/window';

test('with no fault and a short window, the key is served again after the window and the limit holds in a later one', async () => {
  // The burst's smaller limit (fault-run/window.ts): the recovery waits windows, whatever each holds.
  const run = await runSuite({ env: { RATE_LIMIT_WINDOW_S: '5', ...BURST_TARGET_LIMIT }, args: [TEST_FILES.burst] });
  expect(run.exitCode, run.output.slice(-3000)).toBe(0);
  const recovery = run.matrix?.clauses.find((c) => c.id === RECOVERY_CLAUSE);
  expect(recovery?.status, recovery?.reasons.join('; ')).toBe('verified');
});
