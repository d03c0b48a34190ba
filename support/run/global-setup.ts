/**
 * Before any test: the target answers and its spec is fetched once, so an unreachable target ends the run with one line, not a cascade of timeouts;
 * after the last, the run's files go.
 */
import { getConfig } from './config';
import { fetchAndCacheSpec } from '../spec/spec-cache';
import { EXIT_TARGET_UNAVAILABLE, isSuiteError } from './suite-error';
import { removeRunFiles, setRunFiles } from './run-files';
import { writeStoppedMatrix } from '../../reporters/run-outputs';

export default async function globalSetup(): Promise<() => void> {
  const config = getConfig();
  try {
    const spec = await fetchAndCacheSpec(config);
    setRunFiles({ specCache: spec.file, ledger: spec.file.replace(/\.json$/, '.ledger') });
    return removeRunFiles;
  } catch (e) {
    removeRunFiles();
    if (!isSuiteError(e, 'unreachable')) throw e;
    writeStoppedMatrix(config.reportDir, e.message, EXIT_TARGET_UNAVAILABLE);
    process.stderr.write(`\ncontract suite: ${e.message}\n`);
    process.exit(EXIT_TARGET_UNAVAILABLE);
  }
}
