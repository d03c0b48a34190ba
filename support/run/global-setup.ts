/**
 * Before any test: the target answers and its spec is fetched once, so an unreachable target ends the run with one line, not a cascade of timeouts;
 * after the last, the run's files go.
 */
import { EMBEDDED_PORT_VARIABLE, getConfig, readConfig } from './config';
import { embeddedServicePort } from './embedded-service';
import { fetchAndCacheSpec } from '../spec/spec-cache';
import { EXIT_TARGET_UNAVAILABLE, isSuiteError } from './suite-error';
import { removeRunFiles, setRunFiles } from './run-files';
import { writeStoppedMatrix } from '../../reporters/run-outputs';
// The tests' modules, loaded here while the embedded service boots: Playwright loads the test files next.
import '../test';

function stop(reportDir: string, reason: string): never {
  writeStoppedMatrix(reportDir, reason, EXIT_TARGET_UNAVAILABLE);
  process.stderr.write(`\ncontract suite: ${reason}\n`);
  process.exit(EXIT_TARGET_UNAVAILABLE);
}

/** Waits for the embedded service, if this run started one, and hands its port to the workers. */
async function awaitEmbeddedService(): Promise<void> {
  const port = embeddedServicePort();
  if (!port) return;
  try {
    process.env[EMBEDDED_PORT_VARIABLE] = String(await port);
  } catch (e) {
    if (!isSuiteError(e, 'unreachable')) throw e;
    stop(readConfig(process.env, { embeddedPortPending: true }).reportDir, e.message);
  }
}

export default async function globalSetup(): Promise<() => void> {
  await awaitEmbeddedService();
  const config = getConfig();
  try {
    const spec = await fetchAndCacheSpec(config);
    setRunFiles({ specCache: spec.file, ledger: spec.file.replace(/\.json$/, '.ledger') });
    return removeRunFiles;
  } catch (e) {
    removeRunFiles();
    if (!isSuiteError(e, 'unreachable')) throw e;
    stop(config.reportDir, e.message);
  }
}
