/** Every fault applied from outside the reference service (seams.ts); plugin.ts applies those a MOCK_FAULT list names. */
import type { OutsideFault } from './seams';
import { AUTH_FAULTS } from './auth';
import { CHECK_UPDATE_FAULTS } from './check-update';
import { RATE_LIMIT_FAULTS } from './rate-limit';
import { SPEC_FAULTS } from './spec';
import { ERRORS_FAULTS } from './errors';
import { RUNTIME_FAULTS } from './runtimes';
import { REQUEST_FAULTS } from './request';
import { CHECK_FAULTS } from './checks';

/** In the order they are applied (a record's hooks run in the order they are added). */
export const OUTSIDE_FAULTS: readonly OutsideFault[] = [
  ...SPEC_FAULTS,
  ...ERRORS_FAULTS,
  ...RATE_LIMIT_FAULTS,
  ...AUTH_FAULTS,
  ...CHECK_UPDATE_FAULTS,
  ...CHECK_FAULTS,
  ...RUNTIME_FAULTS,
  ...REQUEST_FAULTS,
];
