/**
 * The burst tests that exhaust a limit: a route's own (RL-4) and the global one (RL-1/RL-2/RL-3/RL-6).
 * Each is a test's body (tests/rate-limit-burst.spec.ts): Playwright sets up the fixtures its parameter
 * pattern names, so each names only what it reads. The tests after them, once the key is limited, are
 * in limited-tests.ts.
 */
import type { TestInfo } from '@playwright/test';
import type { Verdict } from '../checks/verdict';
import type { clauses, ContractFixtures } from '../fixtures';
import { attachText } from '../run/attach';
import { declaredWindowSeconds, type RateLimit } from '../run/config';
import { test } from '../test';
import { burstBound, burstTarget } from './burst';
import { writeBurstSummary } from './burst-summary';
import { CUSTOM_CONCURRENCY, customLimitsOf, describeRouteLimit, planCustomLimit } from './custom-limits';
import { checkBurstHeaders } from './header-checks';
import { burstExchange, checkRefusalBodies, judgeLimit } from './judge';
import { describeBurstKey } from './keys';
import { measureBudgetMs, measureLimit, type LimitReport } from './measurement';
import { BURST_PLACE, RL_CLASSES } from './places';
import { burstPlan, roomiestKey, waitForRoom, type BurstPlan } from './plan';
import { describeSpread, spreadOverRoute } from './spread';

export type BurstContext = Pick<ContractFixtures, 'config' | 'spec' | 'target' | 'validator' | 'verdict'>;

/** Recovery waits out a whole window: by default only when that is short. */
export const isSlow = (windowSeconds: number) => windowSeconds > 10;
export const allowed = (l: RateLimit) => `${l.max} served per ${l.windowSeconds} s, then 429`;

// The burst sends through its own client, not the `api` fixture's: its requests are counted here for the run's total.
export const countRequests = (info: TestInfo, n: number) => info.annotations.push({ type: 'requests', description: String(n) });
export const secondsBetween = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
export const pathnameOf = (plan: BurstPlan) => plan.target.path.split('?')[0];

/** The story of a measurement: attached whole, waits as annotations of their own. */
export async function tell(info: TestInfo, verdict: Verdict, name: string, report: LimitReport): Promise<void> {
  countRequests(info, report.requests);
  attachText(info, name, report.story.join('\n'));
  verdict.note(name, report.story.join(' | '));
  for (const w of report.waits) verdict.note('rate-limit-wait', w);
}

/** @slow beside the clause tags when the window takes long to wait out (run when asked for: --grep @slow). */
export const withSlowTag = (d: ReturnType<typeof clauses>) => ({ ...d, tag: [...d.tag, ...(isSlow(declaredWindowSeconds()) ? ['@slow'] : [])] });

/** RL-4 (with RL-3, ERR-2, RL-6): each custom limit the spec states, burst on its own route with the main or second key, whichever has more room. */
export async function customLimitsHold({ spec, config, target, validator, verdict }: BurstContext, info: TestInfo): Promise<void> {
  const rateLimit = config.rateLimit;
  const windowMs = rateLimit.windowSeconds * 1000;
  const limits = customLimitsOf(spec);
  for (const l of limits) verdict.note('custom-rate-limit', describeRouteLimit(l));
  test.skip(!limits.length, 'the spec states no custom rate limit in any operation description');
  const plans = limits.map((l) => ({ l, ...planCustomLimit(l, config, target) }));
  for (const p of plans) if (p.reason) verdict.note('custom-rate-limit-untested', `${describeRouteLimit(p.l)}: ${p.reason}`);
  const testable = plans.filter((p): p is typeof p & { path: string } => !!p.path);
  test.skip(
    !testable.length,
    `none of the ${limits.length} custom limit(s) can be burst-tested: ${plans.map((p) => `${describeRouteLimit(p.l)}: ${p.reason}`).join('; ')}`,
  );
  test.setTimeout(30_000 + testable.reduce((ms, p) => ms + measureBudgetMs(p.l) + windowMs, 0));
  const plan = burstPlan(config, target);
  for (const { l, path } of testable) {
    await test.step(describeRouteLimit(l), async () => {
      const where = { place: `${l.operation.method.toUpperCase()} ${l.operation.path}` };
      // A key the contract tests used: its window of this route holds only what the suite sent there (the ledger).
      const key = roomiestKey(config, plan, rateLimit);
      const bt = burstTarget(config.baseUrl, path, { ...key, accountHeader: target.accountHeader });
      const waited = await waitForRoom(plan, key.apiKey, rateLimit, burstBound(l, CUSTOM_CONCURRENCY));
      if (waited) verdict.note('rate-limit-wait', `${describeRouteLimit(l)}: waited ${(waited / 1000).toFixed(1)} s for room under the global limit first`);
      const report = await measureLimit({
        target: bt,
        limit: l,
        concurrency: CUSTOM_CONCURRENCY,
        known: plan.knownOf(key.apiKey, bt.path.split('?')[0]),
        lastActivity: plan.lastActivity,
      });
      await tell(info, verdict, `burst ${describeRouteLimit(l)}`, report);
      const v = verdict.at({ ...where, valueClass: RL_CLASSES.burst });
      judgeLimit(v, report, l, bt, `${allowed(l)} (as the spec states)`, describeRouteLimit(l));
      const replies = report.measurements.flatMap((m) => [...m.replies, ...m.confirmations]);
      checkRefusalBodies(
        verdict.at({ ...where, valueClass: RL_CLASSES.limited }),
        spec,
        validator,
        l.operation,
        replies.map((r) => burstExchange(bt, r)),
        plan.keys,
      );
      // Its headers may announce its own limit or the global one (RL-6: judged against the one they announce).
      checkBurstHeaders(verdict.at({ ...where, valueClass: RL_CLASSES.burst }), report, l, bt, rateLimit);
    });
  }
}

/** RL-1/RL-2 (with RL-3, ERR-2, RL-6): the global limit, burst over the runtime route's ids with the burst key. */
export async function globalLimitHolds({ config, target, spec, validator, verdict }: BurstContext, info: TestInfo): Promise<void> {
  const rateLimit = config.rateLimit;
  test.setTimeout(30_000 + measureBudgetMs(rateLimit));
  const plan = burstPlan(config, target);
  verdict.note('rate-limit-key', describeBurstKey(plan.roles));
  // Spread over the route's ids: the limit is the key's, not one URL's.
  const spread = await spreadOverRoute(config, plan, target);
  const burstAt = spread.target;
  verdict.note('rate-limit-spread', describeSpread(spread));
  const report = await measureLimit({ ...plan, target: burstAt, limit: rateLimit });
  await tell(info, verdict, 'burst', report);
  writeBurstSummary(config.reportDir, plan.roles.burst.source, report);
  judgeLimit(verdict.at({ place: BURST_PLACE, valueClass: RL_CLASSES.burst }), report, rateLimit, burstAt, allowed(rateLimit));
  const replies = report.measurements.flatMap((m) => [...m.replies, ...m.confirmations]);
  if (replies.some((r) => r.status === 429)) {
    checkRefusalBodies(
      verdict.at({ place: BURST_PLACE, valueClass: RL_CLASSES.limited }),
      spec,
      validator,
      target.runtimeOp,
      replies.map((r) => burstExchange(burstAt, r)),
      plan.keys,
    );
  } else verdict.note('RL-3', 'no 429 came back, so no 429 body to check (see RL-2)');
  checkBurstHeaders(verdict.at({ place: BURST_PLACE, valueClass: RL_CLASSES.burst }), report, rateLimit, burstAt);
}
