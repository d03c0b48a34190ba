/**
 * The contract suite. With no BASE_URL, the embedded reference service is started on a free loopback
 * port by global setup (support/run/embedded-service.ts); otherwise the suite tests BASE_URL as it is.
 */
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import {
  defaultWorkers,
  getConfig,
  handedOver,
  handOver,
  isRunnerProcess,
  loadEnvFile,
  onCi,
  readRunConfig,
  setPlaywrightVariables,
  type Config,
} from './support/run/config';
import { EXIT_CONFIG_ERROR, isSuiteError } from './support/run/suite-error';
import { clearRunOutputs, keepLastWholeRun } from './reporters/run-outputs';
import { checkPaths } from './support/run/path-checks';
import { BURST_FILE, decideBurstInRun, decideOrder } from './support/run/schedule';
import { readSelection } from './support/run/selection';
import { REPORT_FILES } from './support/run/report-files';

loadEnvFile();
// Only the runner's own process (not each worker) clears the last run's outputs and reports a stop.
const isRunner = isRunnerProcess();
// The embedded service listens on a port of its own choosing and prints it; global setup puts it in the
// runner's environment, which the workers (started after it) read.
const port = handedOver('embeddedPort');
let config: Config;
try {
  // Not getConfig(): its cache would keep the runner's configuration without the port.
  config = isRunner ? readRunConfig({ embeddedPortPending: !port }) : getConfig();
  // The paths it names, before Playwright writes under REPORT_DIR or a test starts.
  if (isRunner) checkPaths(config);
} catch (e) {
  if (!isSuiteError(e, 'config')) throw e;
  // Nothing written: the last run's reports stay as they were, and the exit code says why this one stopped.
  process.stderr.write(`configuration error: ${e.message}\n`);
  process.exit(EXIT_CONFIG_ERROR);
}
// `--list` runs nothing and a partial run (--grep, files, a shard) writes its own reports: only a whole run clears the last
// run's first, so that a selection that matches nothing leaves the last whole run's reports as they were.
const selection = readSelection(process.argv);
if (isRunner && !selection.listing && !selection.partial) clearRunOutputs(config.reportDir);
if (isRunner && !selection.listing && selection.partial) keepLastWholeRun(config.reportDir);
// The workers judge waivers by the day the run started, as the runner's summary does.
if (isRunner) handOver('waiverDay', config.today);
const matrixOptions = {
  outputDir: config.reportDir,
  waivers: { file: config.waiversFile, entries: config.waivers, today: config.today },
  partial: selection.partial,
};
const order = decideOrder(selection);
decideBurstInRun(selection);

const reports = config.reportDir;

// A --reporter on the command line replaces every reporter below (Playwright 1.65 has no option that keeps one; --add-reporter
// adds to them but is the user's to type). The contract reports must not depend on which console the user chose, so under a
// command-line --reporter the runner adds the matrix reporter (matrix, junit.xml, failures.json, the clause lines) through
// PW_TEST_REPORTER, the variable Playwright reads after the configuration to add one reporter (as its VS Code extension does);
// without options it reads the run's own (contractReportOptions). Playwright's HTML report is a reporter of its own, not ours
// to add: its folder is set here, so that `--reporter=dot,html` or `--add-reporter=html` writes it where this run's goes.
setPlaywrightVariables({
  addReporter: isRunner && selection.ownReporters && !selection.listing ? resolve(__dirname, 'reporters/clause-matrix.ts') : undefined,
  htmlOutputDir: resolve(__dirname, reports, REPORT_FILES.html),
});

export default defineConfig({
  testDir: 'tests',
  outputDir: `${reports}/test-results`,
  globalSetup: './support/run/global-setup.ts',
  timeout: 30_000,
  workers: defaultWorkers(config.embedded),
  forbidOnly: onCi(),
  retries: 0,
  // Our console (reporters/console.ts) instead of 'list': progress, wait notices, and a line per failed clause instead of the
  // failures' texts (the reports keep them). --list writes no report: Playwright's list of tests only.
  reporter: selection.listing
    ? [['list']]
    : [['./reporters/console.ts'], ['html', { outputFolder: `${reports}/html`, open: 'never' }], ['./reporters/clause-matrix.ts', matrixOptions]],
  use: { trace: 'off' },
  // The check update is one ordered chain (its describe runs in order) that goes to whichever worker is
  // free; every file has the same fixtures (support/test.ts), so a worker runs the chain and then the
  // other tests. The burst runs after every other test (support/run/schedule.ts): in the contract
  // project, last and alone; with --shuffle, as the contract project's teardown.
  projects:
    order === 'own-project'
      ? [
          { name: 'contract', testIgnore: BURST_FILE, fullyParallel: true, teardown: 'rate-limit' },
          { name: 'rate-limit', testMatch: BURST_FILE, fullyParallel: false },
        ]
      : [{ name: 'contract', fullyParallel: true }],
});
