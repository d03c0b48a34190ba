/**
 * The contract suite. With no BASE_URL, the embedded reference service is started on a free loopback
 * port by `webServer`; otherwise the suite tests BASE_URL as it is.
 */
import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { ConfigError, EMBEDDED_PORT_VARIABLE, getConfig, loadEnvFile, type Config } from './support/run/config';
import { EXIT_CONFIG_ERROR } from './support/run/exit-codes';
import { freePortSync } from './support/run/free-port';
import { clearRunOutputs, writeStoppedMatrix } from './reporters/run-outputs';

loadEnvFile();
// The workers evaluate this file again: the port chosen here reaches them through the environment.
if (!process.env.BASE_URL?.trim() && !process.env[EMBEDDED_PORT_VARIABLE]) {
  process.env[EMBEDDED_PORT_VARIABLE] = String(freePortSync());
}

// Only the runner's own process (not each worker) clears the last run's outputs and reports a stop.
const isRunner = process.env.TEST_WORKER_INDEX === undefined;
let config: Config;
try {
  config = getConfig();
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  const reportDir = process.env.REPORT_DIR?.trim() || 'reports';
  if (isRunner) writeStoppedMatrix(reportDir, `configuration error: ${e.message}`, EXIT_CONFIG_ERROR);
  process.stderr.write(`configuration error: ${e.message}\n`);
  process.exit(EXIT_CONFIG_ERROR);
}
if (isRunner) clearRunOutputs(config.reportDir);

const reports = config.reportDir;

export default defineConfig({
  testDir: 'tests',
  outputDir: `${reports}/test-results`,
  globalSetup: './support/run/global-setup.ts',
  globalTeardown: './support/run/global-teardown.ts',
  timeout: 30_000,
  // A worker costs about a second of CPU to start (and another after each failed test), and the tests
  // mostly wait on the target: one per core, at least two (the agent's shutdown test mostly waits),
  // at most four (the check update runs in order in one worker whatever the count).
  workers: Math.min(4, Math.max(2, availableParallelism())),
  forbidOnly: !!process.env.CI,
  retries: 0,
  // The self-test's fault runs (failuresExpected) read failures.json alone: no page, no JUnit file for them.
  reporter: config.failuresExpected
    ? [['dot'], ['./reporters/clause-matrix.ts', { outputDir: reports }]]
    : [
        ['list'],
        ['html', { outputFolder: `${reports}/html`, open: 'never' }],
        ['./reporters/junit.ts', { outputFile: `${reports}/junit.xml` }],
        ['./reporters/clause-matrix.ts', { outputDir: reports }],
      ],
  use: { trace: 'off' },
  projects: [
    // Everything but the burst; the burst runs after it (as its teardown, which runs whatever the
    // outcome) so that exhausting the rate limit never starves another test. The check update is one
    // ordered chain (its describe runs in order) that goes to whichever worker is free; every file has
    // the same fixtures (support/test.ts), so a worker runs the chain and then the other tests.
    { name: 'contract', testIgnore: /z-rate-limit-burst\.spec\.ts/, fullyParallel: true, teardown: 'rate-limit' },
    { name: 'rate-limit', testMatch: /z-rate-limit-burst\.spec\.ts/, fullyParallel: false },
  ],
  webServer: config.embedded
    ? {
        command: 'node support/run/embedded.mjs reference/service/main.ts',
        port: Number(process.env[EMBEDDED_PORT_VARIABLE]),
        // Ready on its line, not on the next port poll (Playwright polls at 0.1, 0.35, 0.85, 1.85 s…).
        wait: { stdout: /listening on/ },
        reuseExistingServer: false,
        timeout: 20_000,
        stdout: 'ignore',
        stderr: 'pipe',
        env: {
          PORT: String(process.env[EMBEDDED_PORT_VARIABLE]),
          HOST: '127.0.0.1',
          RATE_LIMIT_MAX: String(config.rateLimit.max),
          RATE_LIMIT_WINDOW_S: String(config.rateLimit.windowSeconds),
        },
      }
    : undefined,
});
