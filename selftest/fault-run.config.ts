/**
 * The self-test's run of many faulty targets at once (see self/fault-run/plan.ts): one project, a
 * file per target that declares its tests in a describe of its own, with the target's configuration
 * (self/fault-run/tests-per-target.ts), so that a worker runs the tests of many targets. Each target's
 * burst is a target of its own (run-targets.ts), with a service of its own: it takes no exclusive lock,
 * which would hold every other target's tests too (support/run/schedule.ts), and the other targets'
 * tests never share a window with it (burstInRun reads the project's file, which is not the burst's).
 */
import { defineConfig } from '@playwright/test';
import { FAULT_RUN_PROJECT, readPlan, TARGET_FILE } from './self/fault-run/plan';
import { SelectedTests } from './self/fault-run/selected-tests';
import { burstInOwnProject } from '../support/run/schedule';

burstInOwnProject();

const plan = readPlan();

export default defineConfig({
  testDir: plan.testsDir,
  testMatch: TARGET_FILE,
  grep: new SelectedTests(plan),
  outputDir: plan.outputDir,
  globalSetup: './self/fault-run/start-targets.ts',
  timeout: 30_000,
  retries: 0,
  fullyParallel: true,
  reporter: [['dot'], ['../reporters/clause-matrix.ts', { outputDir: plan.reportDir }]],
  use: { trace: 'off' },
  projects: [{ name: FAULT_RUN_PROJECT }],
});
