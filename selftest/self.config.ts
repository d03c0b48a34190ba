/** The self-test: the contract suite run against the reference service with injected faults. */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'self',
  timeout: 180_000,
  workers: 3,
  fullyParallel: true,
  reporter: [['list']],
});
