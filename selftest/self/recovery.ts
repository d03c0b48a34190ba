import type { ClauseId } from '../../support/document/clauses';

/** The clause only the recovery test verifies: the fault runs' window (and so the baseline's) is too long for it. */
export const RECOVERY_CLAUSE: ClauseId = 'RL-5';
