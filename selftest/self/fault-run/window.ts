import { RUNTIME_LIST_LIMIT } from '../../../reference/service/runtimes/seams';
import { leastGlobalLimitFor } from '../../../support/rate-limit/custom-limits';
/**
 * The rate-limit window of every fault run whose fault sets none of its own. The suite keeps its requests
 * under the limit per window, and a fault that makes the update family replay its batches cell by cell
 * sends over 600 in a minute: with the documented 60 s window its run waited most of a minute (three such
 * runs, a minute each, were the self-test's last). Still over 10 s, so the recovery test stays @slow as
 * in a default run, and the runs try the same tests.
 */
export const FAULT_RUN_WINDOW = { RATE_LIMIT_WINDOW_S: '15' };

/** The reference's own route limit, the one its spec states (the runtime list's 20 per 10 s). */
const ROUTE_LIMIT = { max: RUNTIME_LIST_LIMIT.max, windowSeconds: RUNTIME_LIST_LIMIT.timeWindow / 1000 };

/**
 * The limit of a target that runs the burst alone (run-targets.ts gives the burst a target of its own). The burst spends the whole limit
 * on its route, and again where it must measure twice: at the documented 600 those were most of the self-test's requests. The least
 * limit at which the reference's route limit is still burst-tested will do. A fault whose catch depends on the documented number
 * says so in its own settings.
 */
export const BURST_TARGET_LIMIT = { RATE_LIMIT_MAX: String(leastGlobalLimitFor(ROUTE_LIMIT)) };

/** A fault's own settings, over the fault runs' window. */
export const faultRunEnv = (env?: Record<string, string>): Record<string, string> => ({ ...FAULT_RUN_WINDOW, ...env });
