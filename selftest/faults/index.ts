/** Every injected fault the self-test runs, family by family. */
import { FOUNDATION_FAULTS } from './foundation';
import type { FaultExpectation } from './types';

export const ALL_FAULTS: FaultExpectation[] = [...FOUNDATION_FAULTS];
