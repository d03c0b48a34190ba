/**
 * Before any test: the target answers and its spec is fetched once, so an unreachable target ends the run with one line, not a cascade of timeouts;
 * after the last, the run's files go.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getConfig, handedOver, handOver, readRunConfig } from './config';
import { startEmbeddedService } from './embedded-service';
import { fetchAndCacheSpec } from '../spec/spec-cache';
import { EXIT_CONFIG_ERROR, EXIT_TARGET_UNAVAILABLE, isSuiteError } from './suite-error';
import { filesIn, setRunDir } from './run-files';
import { writeStoppedMatrix } from '../../reporters/run-outputs';

export default async function globalSetup(): Promise<() => void> {
  const early = readRunConfig({ embeddedPortPending: true });
  const dir = mkdtempSync(join(tmpdir(), 'contract-suite-run-'));
  const removeRunFiles = () => rmSync(dir, { recursive: true, force: true });
  try {
    // The embedded service when there is no BASE_URL: its port goes to the workers.
    if (early.embedded) {
      const port = startEmbeddedService(early, Number(handedOver('embeddedPort') ?? 0));
      // The tests' modules, loaded while it boots: Playwright loads the test files right after global setup.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded for the time it takes, now rather than after the wait
      require('../test');
      handOver('embeddedPort', String(await port));
    }
    await fetchAndCacheSpec(getConfig(), filesIn(dir).specCache);
    setRunDir(dir);
    return removeRunFiles;
  } catch (e) {
    removeRunFiles();
    // A SPEC_URL file gone since the runner checked it.
    if (isSuiteError(e, 'config')) {
      process.stderr.write(`configuration error: ${e.message}\n`);
      process.exit(EXIT_CONFIG_ERROR);
    }
    if (!isSuiteError(e, 'unreachable')) throw e;
    writeStoppedMatrix(early.reportDir, e.message, EXIT_TARGET_UNAVAILABLE);
    process.stderr.write(`\ncontract suite: ${e.message}\n`);
    process.exit(EXIT_TARGET_UNAVAILABLE);
  }
}
