/** Unit tests of the support code and of the reference service (no browser, no running target). */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'unit',
  timeout: 30_000,
  // More than the two cores: many tests wait (agent drains, child processes, timers). `npm test` runs them
  // in one, beside the self-test that keeps both cores busy longer than their waits last: each further
  // worker loads support/ and reference/ and warms them up again (49 s of CPU with one, 63 s with two).
  workers: 3,
  fullyParallel: true,
  reporter: [['list']],
});
