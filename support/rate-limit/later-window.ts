/** RL-1 beyond the first window (a limiter may be right only in the first): counted again a whole window after the key's last request. */
import { measureLimit, sleep, windowMargin, type Limit, type LimitReport } from './measurement';
import type { BurstPlan } from './plan';

/** Waits until a whole window has passed since the suite's last request, then measures the limit again with the burst's key. */
export async function measureInLaterWindow(plan: BurstPlan, limit: Limit): Promise<{ report: LimitReport; waitedMs: number }> {
  const windowMs = limit.windowSeconds * 1000;
  const quietUntil = plan.lastActivity() + windowMs + windowMargin(windowMs);
  const waitedMs = Math.max(0, quietUntil - Date.now());
  await sleep(waitedMs);
  // A timer may fire a millisecond early by the wall clock: the window looked back over must start after the last request.
  while (Date.now() <= quietUntil) await sleep(1);
  const report = await measureLimit({
    target: plan.target,
    limit,
    known: plan.known,
    lastActivity: plan.lastActivity,
    otherKey: plan.other,
    exclusive: plan.exclusive,
  });
  return { report, waitedMs };
}
