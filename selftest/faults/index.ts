/** Every injected fault the self-test runs, family by family. */
import { CHECK_UPDATE_FAULTS } from './check-update';
import { FOUNDATION_FAULTS } from './foundation';
import { RATE_LIMIT_FAULTS } from './rate-limit';
import type { FaultExpectation } from './types';

export const ALL_FAULTS: FaultExpectation[] = [...FOUNDATION_FAULTS, ...CHECK_UPDATE_FAULTS, ...RATE_LIMIT_FAULTS];
