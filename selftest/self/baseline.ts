/**
 * Where the run without faults keeps its reports: the fault runs read its tried.json there, to run only
 * the tests that can catch their faults (test-selection.ts). Outside the self-test's output folder (which
 * Playwright empties when a run starts), so that fault runs started alone (`--no-deps`) use the last one;
 * a stale one costs nothing but time: a fault its batch misses runs again alone, with all of its files.
 */
import { join } from 'node:path';
import type { TestTried } from '../../reporters/clause-matrix';
import { readReport, REPORT_FILES } from '../../support/run/report-files';

export const BASELINE_DIR = join(__dirname, '../../node_modules/.cache/contract-suite/self-test-baseline');

/** What each test of the run without faults tried; undefined when that run has not been made. */
export function baselineTried(): TestTried[] | undefined {
  return readReport(BASELINE_DIR, REPORT_FILES.tried);
}
