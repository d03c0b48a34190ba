/**
 * The self-test: the contract suite run against the reference service, without faults and with each
 * injected fault. The run without faults comes first, alone: the fault runs pick their tests from its
 * record of what each test tried, and it has the machine to itself (two workers) while nothing else can
 * start anyway.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'self',
  outputDir: 'test-results',
  timeout: 300_000,
  // Each test runs the suite as a child (a runner, a service, a worker): most of a run is one process
  // at a time, and some of it waits (rate-limit windows, the agent's drain), so more runs than cores.
  workers: 4,
  fullyParallel: true,
  reporter: [['list'], ['./self/kill-ratio-reporter.ts', { outputDir: '../reports/self-test' }]],
  projects: [
    { name: 'baseline', testMatch: /baseline\.spec\.ts/ },
    // The longest test first (the run of every fault), so that the short ones fill the workers beside it
    // instead of one long run trailing alone.
    { name: 'faults', testMatch: /faults\.spec\.ts/, dependencies: ['baseline'] },
    { name: 'cli', testMatch: /(cli|reports|recovery)\.spec\.ts/, dependencies: ['baseline'] },
  ],
});
