/** Faults of the check update families (CU, FO) and the clauses the suite must fail on because of them. */
import type { FaultExpectation } from './types';
import { TEST_FILES } from '../../support/run/test-files';

const CU = [TEST_FILES.checkUpdate];

export const CHECK_UPDATE_FAULTS: FaultExpectation[] = [
  { fault: 'fo-upper-off-by-one-low', clauses: ['FO-2'], files: CU },
  { fault: 'fo-upper-off-by-one-high', clauses: ['FO-3'], files: CU },
  { fault: 'fo-too-strict', clauses: ['FO-2', 'FO-3'], files: CU },
  { fault: 'cu-lost-update', clauses: ['CU-1'], files: CU },
  { fault: 'cu-content-type-exact', clauses: ['CU-1'], files: CU },
  { fault: 'fo-key-order', clauses: ['FO-2', 'FO-3'], files: CU },
  { fault: 'fo-zero-any', clauses: ['FO-1'], files: CU },
  { fault: 'fo-zero-browser', clauses: ['FO-5'], files: CU },
  { fault: 'fo-offset-zero', clauses: ['FO-4'], files: CU },
  { fault: 'fo-fractional', clauses: ['FO-4'], files: CU },
  { fault: 'fo-string-offset', clauses: ['FO-4'], files: CU },
  { fault: 'fo-offset-number-unchanged', clauses: ['FO-4'], files: CU },
  { fault: 'fo-refused-draft-frequency', clauses: ['FO-2'], files: CU },
  // A 500 where a 4xx belongs fails every rule that has a rejected cell.
  { fault: 'cu-500', clauses: ['FO-1', 'FO-2', 'FO-3', 'FO-4', 'FO-5', 'CU-2', 'CU-3', 'CU-4', 'CU-5', 'CU-6'], files: CU },
  { fault: 'cu-astral-dropped', clauses: ['CU-1'], files: CU },
  // A value overwritten before any read showed it stored: each is read before the next body overwrites it.
  { fault: 'cu-description-cut-255', clauses: ['CU-1'], files: CU },
  { fault: 'cu-runtime-pinned-newest', clauses: ['CU-9'], files: CU },
  { fault: 'cu-partial-apply', clauses: ['CU-7'], files: CU },
  { fault: 'cu-not-persisted', clauses: ['CU-1'], files: CU },
  // The model of the check: a refused body's carriers seen at any later read, and an accepted update repeated.
  { fault: 'cu-refused-draft-kept', clauses: ['CU-7'], files: CU },
  { fault: 'cu-no-op-refused', clauses: ['CU-1'], files: CU },
  { fault: 'cu-refused-saved-after-read', clauses: ['CU-7'], files: CU },
  { fault: 'cu-description-501', clauses: ['CU-2'], files: CU },
  { fault: 'cu-negative-grouporder', clauses: ['CU-3'], files: CU },
  { fault: 'cu-unknown-location', clauses: ['CU-4'], files: CU },
  { fault: 'cu-empty-locations', clauses: ['CU-4'], files: CU },
  { fault: 'cu-unknown-runtime', clauses: ['CU-5'], files: CU },
  { fault: 'cu-unknown-checktype', clauses: ['CU-6'], files: CU },
  { fault: 'cu-unknown-id-200', clauses: ['CU-8'], files: CU },
  // A null the update answers 2xx to is not stored: the null cells (description, groupOrder) do not
  // read back (CU-1), and restoring a field that was null leaves it changed (CU-9). The tests after the
  // first failure run in a new worker, which keeps the run's own snapshot: no other clause fails.
  { fault: 'cu-null-ignored', clauses: ['CU-1', 'CU-9'], files: CU },
];
