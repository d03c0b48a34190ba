/**
 * Before any test: the configuration is valid (playwright.config.ts checked it), the target answers and
 * its spec is fetched once; after the last, the run's files go (the teardown it returns). A target that cannot be reached ends the run here with one line, instead of
 * a cascade of timeouts in every test. A target that answers without a spec is the target's fault, not
 * the network's: the run goes on, SPEC-1 fails and every other test is skipped saying why (fixtures.ts).
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
