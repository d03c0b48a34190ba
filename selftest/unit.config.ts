/** Unit tests of the support code and of the reference service (no browser, no running target). */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'unit',
  timeout: 30_000,
  workers: 2,
  fullyParallel: true,
  reporter: [['list']],
});
