/** What a test costs Playwright by itself, with the suite's settings (one worker here: the cost per test, not the spread). */
import { defineConfig } from '@playwright/test';

export default defineConfig({ testDir: '.', testMatch: 'empty-tests.spec.ts', reporter: [['dot']], workers: 1, use: { trace: 'off' } });
