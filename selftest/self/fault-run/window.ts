/**
 * The rate-limit window of every fault run whose fault sets none of its own. The suite keeps its requests
 * under the limit per window, and a fault that makes the update family replay its batches cell by cell
 * sends over 600 in a minute: with the documented 60 s window its run waited most of a minute (three such
 * runs, a minute each, were the self-test's last). Still over 10 s, so the recovery test stays @slow as
 * in a default run, and the runs try the same tests.
 */
export const FAULT_RUN_WINDOW = { RATE_LIMIT_WINDOW_S: '15' };

/** A fault's own settings, over the fault runs' window. */
export const faultRunEnv = (env?: Record<string, string>): Record<string, string> => ({ ...FAULT_RUN_WINDOW, ...env });
