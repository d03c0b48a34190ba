/**
 * The seed of a run that sets none (CASE_SEED): apart from the value generation (case-choice.ts) so that
 * reading the configuration, which every process does, does not load fast-check.
 */
export const DEFAULT_CASE_SEED = 20260404;
