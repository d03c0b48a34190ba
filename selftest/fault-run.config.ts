/**
 * The self-test's run of many faulty targets at once (see self/fault-run/plan.ts): per target, one
 * project of the suite's tests with the target's environment, run in one worker. The burst has a target
 * and so a project of its own (run-targets.ts): it takes no exclusive lock, which would hold every other
 * target's tests too (support/run/schedule.ts).
 */
import { defineConfig, type Project } from '@playwright/test';
import { readPlan, suiteEnv, type PlannedTarget } from './self/fault-run/plan';
import { burstInOwnProject } from '../support/run/schedule';

burstInOwnProject();

const plan = readPlan();

const fileName = (file: string) => file.replace(/^tests\//, '');
const exactly = (file: string) => new RegExp(`(^|/)${fileName(file).replace(/[.]/g, '\\.')}$`);

const projectOf = (t: PlannedTarget): Project => ({
  name: t.name,
  testMatch: t.files.map(exactly),
  fullyParallel: true,
  workers: 1,
  metadata: { env: suiteEnv(t) },
});

export default defineConfig({
  testDir: '../tests',
  outputDir: plan.outputDir,
  globalSetup: './self/fault-run/start-targets.ts',
  timeout: 30_000,
  retries: 0,
  reporter: [['dot'], ['../reporters/clause-matrix.ts', { outputDir: plan.reportDir }]],
  use: { trace: 'off' },
  projects: plan.targets.map(projectOf),
});
