/** Unit tests of the support code and of the reference service (no browser, no running target). */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'unit',
  timeout: 30_000,
  // More than the two cores: many tests wait (agent drains, child processes, timers). `npm test` runs them
  // with two, beside the self-test that keeps the cores busy: each worker loads most of support/ and
  // reference/ again (5 s of CPU for the third).
  workers: 3,
  fullyParallel: true,
  reporter: [['list']],
});
