/**
 * The self-test's run of many faulty targets at once (see self/fault-run/plan.ts): per target, a
 * project of the suite's tests with the target's environment, and the burst as that project's teardown
 * when the target's files include it (as in a user's run: after every other test). Each project runs in
 * one worker, its tests in order, as a run against that target alone with one worker would.
 */
import { defineConfig, type Project } from '@playwright/test';
import { burstProject, isBurstFile, readPlan, suiteEnv, type PlannedTarget } from './self/fault-run/plan';

const plan = readPlan();

const fileName = (file: string) => file.replace(/^tests\//, '');
const exactly = (file: string) => new RegExp(`(^|/)${fileName(file).replace(/[.]/g, '\\.')}$`);

function projectsOf(t: PlannedTarget): Project[] {
  const metadata = { env: suiteEnv(t) };
  const others = t.files.filter((f) => !isBurstFile(f));
  const burst = t.files.some(isBurstFile);
  const projects: Project[] = [];
  if (others.length)
    projects.push({ name: t.name, testMatch: others.map(exactly), fullyParallel: true, workers: 1, metadata, teardown: burst ? burstProject(t) : undefined });
  if (burst) projects.push({ name: burstProject(t), testMatch: /rate-limit-burst\.spec\.ts$/, workers: 1, metadata });
  return projects;
}

export default defineConfig({
  testDir: '../tests',
  outputDir: plan.outputDir,
  globalSetup: './self/fault-run/start-targets.ts',
  timeout: 30_000,
  retries: 0,
  reporter: [['dot'], ['../reporters/clause-matrix.ts', { outputDir: plan.reportDir }]],
  use: { trace: 'off' },
  projects: plan.targets.flatMap(projectsOf),
});
