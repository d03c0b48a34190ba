/** The clause only the recovery test verifies: the fault runs' window (and so the baseline's) is too long for it. */
export const RECOVERY_CLAUSE = 'RL-5';
