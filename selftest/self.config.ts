/**
 * The self-test: the contract suite run against the reference service, without faults and with each
 * injected fault. The run without faults comes first (its record of what each test tried picks the
 * tests of the fault runs); the CLI and report tests need nothing of it and start with it.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'self',
  outputDir: 'test-results',
  timeout: 240_000,
  // Each test runs the suite as a child (a runner, a service, a worker): most of a run is one process
  // at a time, and some of it waits (rate-limit windows, the agent's drain), so more runs than cores.
  workers: 4,
  fullyParallel: true,
  reporter: [['list'], ['./self/kill-ratio-reporter.ts', { outputDir: '../reports/self-test' }]],
  projects: [
    { name: 'baseline', testMatch: /baseline\.spec\.ts/ },
    { name: 'faults', testMatch: /faults\.spec\.ts/, dependencies: ['baseline'] },
    { name: 'cli', testMatch: /(cli|reports)\.spec\.ts/ },
  ],
});
