/**
 * Every contract check is proven able to fail: for each fault injected into the reference service, the
 * suite (run as a user runs it) must fail, and on the expected clause. With no fault it passes.
 */
import { expect, test } from '@playwright/test';
import { ALL_FAULTS } from '../faults';
import { failedClauses, runSuite } from '../../support/run/suite-runner';

test('with no fault, the whole suite passes and every clause is verified', async () => {
  // A short window, so that the recovery test (RL-5) runs too instead of waiting for @slow.
  const run = await runSuite({ env: { RATE_LIMIT_WINDOW_S: '5' } });
  expect(run.exitCode, run.output.slice(-3000)).toBe(0);
  expect(run.matrix, 'contract-matrix.json was written').toBeDefined();
  const unverified = run.matrix!.clauses.filter((c) => c.status !== 'verified').map((c) => `${c.id}: ${c.status} ${c.reasons.join('; ')}`);
  expect(unverified).toEqual([]);
});

for (const f of ALL_FAULTS) {
  test(`fault ${f.fault} is caught on ${f.stops ? `exit ${f.stops.exitCode}` : f.clauses.join(', ')}`, async () => {
    // A family's files alone: --no-deps keeps the burst (the contract project's teardown) out, unless asked for.
    const burst = f.files.some((file) => file.includes('rate-limit-burst'));
    const run = await runSuite({ fault: f.fault, args: burst ? f.files : ['--no-deps', ...f.files], env: f.env });
    if (f.stops) {
      expect(run.exitCode, run.output.slice(-2000)).toBe(f.stops.exitCode);
      expect(run.output).toMatch(f.stops.text);
      return;
    }
    expect(run.exitCode, `the suite passed with fault ${f.fault}:\n${run.output.slice(-2000)}`).not.toBe(0);
    const failed = failedClauses(run);
    for (const clause of f.clauses) expect(failed, `fault ${f.fault} must fail ${clause}; output:\n${run.output.slice(-2500)}`).toContain(clause);
  });
}
