/**
 * The self-test's run of many faulty targets at once (see self/fault-run/plan.ts): per target, one
 * project of the suite's tests with the target's environment, run in one worker. The burst has a target
 * and so a project of its own (run-targets.ts): it takes no exclusive lock, which would hold every other
 * target's tests too (support/run/schedule.ts).
 */
import { defineConfig, type Project } from '@playwright/test';
import { readPlan, suiteEnv, targetFiles, type PlannedTarget } from './self/fault-run/plan';
import { readConfig, type Config } from '../support/run/config';
import { setRunFiles } from '../support/run/run-files';
import { burstInOwnProject } from '../support/run/schedule';

burstInOwnProject();

const plan = readPlan();

const fileName = (file: string) => file.replace(/^tests\//, '');
const exactly = (file: string) => new RegExp(`(^|/)${fileName(file).replace(/[.]/g, '\\.')}$`);

/**
 * The suite's `config` fixture of the target's project, set up in its worker: the environment of a run
 * against the target alone, and the configuration read from it. Playwright's types know option values
 * only; a fixture function in their place is set up as the fixture.
 */
const configOf = (t: PlannedTarget) =>
  (async ({}, use: (config: Config) => Promise<void>) => {
    Object.assign(process.env, suiteEnv(t, plan));
    setRunFiles(targetFiles(t));
    await use(readConfig(process.env));
  }) as unknown as Config;

const projectOf = (t: PlannedTarget): Project<object, { config: Config }> => ({
  name: t.name,
  testMatch: t.files.map(exactly),
  fullyParallel: true,
  workers: 1,
  use: { config: configOf(t) },
});

export default defineConfig<object, { config: Config }>({
  testDir: '../tests',
  outputDir: plan.outputDir,
  globalSetup: './self/fault-run/start-targets.ts',
  timeout: 30_000,
  retries: 0,
  reporter: [['dot'], ['../reporters/clause-matrix.ts', { outputDir: plan.reportDir }]],
  use: { trace: 'off' },
  projects: plan.targets.map(projectOf),
});
