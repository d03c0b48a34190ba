/** The floor of the bench: Playwright with one trivial API test and nothing else (no web server, no setup). */
import { defineConfig } from '@playwright/test';

export default defineConfig({ testDir: '.', testMatch: 'floor.spec.ts', reporter: [['line']], workers: 1 });
