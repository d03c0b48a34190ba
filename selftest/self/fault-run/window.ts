/**
 * The rate-limit window of every fault run whose fault sets none of its own. The suite keeps its requests
 * under the limit per window, and a fault that makes the update family replay its batches cell by cell
 * sends over 600 in a minute: with the documented 60 s window its run waited most of a minute (three such
 * runs, a minute each, were the self-test's last). Still over 10 s, so the recovery test stays @slow as
 * in a default run, and the runs try the same tests.
 */
export const FAULT_RUN_WINDOW = { RATE_LIMIT_WINDOW_S: '15' };

/**
 * The limit of a target that runs the burst alone (run-targets.ts gives the burst a target of its own). The burst spends the whole limit
 * on its route, and again where it must measure twice: at the documented 600 those were most of the self-test's requests. 240 is the
 * least limit at which the published spec's own route limit (20 per 10 s) is still burst-tested (a route's burst may spend a quarter of
 * the global limit, support/rate-limit/custom-limits.ts). A fault whose catch depends on the documented number says so in its own settings.
 */
export const BURST_TARGET_LIMIT = { RATE_LIMIT_MAX: '240' };

/** A fault's own settings, over the fault runs' window. */
export const faultRunEnv = (env?: Record<string, string>): Record<string, string> => ({ ...FAULT_RUN_WINDOW, ...env });
