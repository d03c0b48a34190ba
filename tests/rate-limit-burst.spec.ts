/**
 * The tests that exhaust a rate limit: RL-4 (a route's own limit), RL-1/RL-2/RL-3/RL-6 (the global
 * limit), the 429 on every other route (RL-2, RL-3, ERR-2..4), RL-5 (recovery; then RL-1/RL-2 in a later window). They run after every
 * other test, whatever their outcome, and in order, so that using up a key's budget starves nobody
 * (support/run/schedule.ts decides how). BURST=off skips it.
 *
 * The global burst spends the key nothing else uses (BURST_API_KEY, else SECOND_API_KEY), so its window
 * holds nothing to explain and the decision is exact without waiting; with one key it shares the
 * contract tests' window and relies on the target's own headers, or waits a window (the report says why).
 * Its requests go to the runtime operation at every accepted version in turn (spread.ts); recovery heeds
 * what the 429s announce (recovery.ts).
 */
import { burstBound, burstTarget, isServed, sendOne, type Reply } from '../support/rate-limit/burst';
import { exhaust, measureBudgetMs, measureLimit, waitQuietWindow, type LimitReport } from '../support/rate-limit/measurement';
import { brokenAnnouncement, describeBroken, readLimitHeaders, ROUNDING_MS } from '../support/rate-limit/headers';
import { watchRecovery } from '../support/rate-limit/recovery';
import { checkBurstHeaders } from '../support/rate-limit/header-checks';
import { describeBurstKey } from '../support/rate-limit/keys';
import { burstPlan, waitForRoom, type BurstPlan } from '../support/rate-limit/plan';
import { describeSpread, spreadOverRoute } from '../support/rate-limit/spread';
import { burstExchange, checkRefusalBodies, judgeLimit } from '../support/rate-limit/judge';
import { declares429, routeProbes } from '../support/rate-limit/route-probes';
import { CUSTOM_CONCURRENCY, customLimitsOf, describeRouteLimit, planCustomLimit } from '../support/rate-limit/custom-limits';
import { writeLastRun } from '../support/rate-limit/known-prior';
import { writeBurstSummary } from '../support/rate-limit/burst-summary';
import { BURST_PLACE, RL_CLASSES } from '../support/rate-limit/places';
import { readLedger } from '../support/http/request-ledger';
import { declaredWindowSeconds, type RateLimit } from '../support/run/config';
import { lastLock } from '../support/run/schedule';
import { attachText } from '../support/run/attach';
import { clauses, test } from '../support/test';
import type { Verdict } from '../support/checks/verdict';
import type { TestInfo } from '@playwright/test';

/** Recovery waits out a whole window: by default only when that is short. */
const isSlow = (windowSeconds: number) => windowSeconds > 10;
const allowed = (l: RateLimit) => `${l.max} served per ${l.windowSeconds} s, then 429`;

const countRequests = (info: TestInfo, n: number) => info.annotations.push({ type: 'requests', description: String(n) });
const secondsBetween = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
const pathnameOf = (plan: BurstPlan) => plan.target.path.split('?')[0];

/** The story of a measurement: attached whole, waits as annotations of their own. */
async function tell(info: TestInfo, verdict: Verdict, name: string, report: LimitReport): Promise<void> {
  countRequests(info, report.requests);
  attachText(info, name, report.story.join('\n'));
  verdict.note(name, report.story.join(' | '));
  for (const w of report.waits) verdict.note('rate-limit-wait', w);
}

// @burst: what a sharded run leaves out of its shards and runs alone (examples/github-actions-sharded.yml).
/** @slow beside the clause tags when the window takes long to wait out (run when asked for: --grep @slow). */
const withSlowTag = (d: ReturnType<typeof clauses>) => ({ ...d, tag: [...d.tag, ...(isSlow(declaredWindowSeconds()) ? ['@slow'] : [])] });

test.describe('rate limit: burst', { tag: '@burst', lock: lastLock() }, () => {
  // In order, in one worker, whatever the project's mode: recovery follows the exhaustion.
  test.describe.configure({ mode: 'default' });

  test.beforeEach(({ config }) => {
    test.skip(!config.burst, 'BURST=off: the tests that exhaust a rate limit are skipped');
  });

  // What this run sent, for the next run against the same target (a window it may still meet).
  test.afterAll(({ config }) => {
    if (!config.embedded) writeLastRun(config.reportDir, config.baseUrl, config.rateLimit.windowSeconds, readLedger());
  });

  test(
    'custom per-route limits stated in the spec hold',
    clauses('RL-4', 'RL-3', 'ERR-2', 'RL-6'),
    async ({ spec, config, target, validator, verdict }, info) => {
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
      const key = { apiKey: config.apiKey, accountId: config.accountId, accountHeader: target.accountHeader };
      for (const { l, path } of testable) {
        await test.step(describeRouteLimit(l), async () => {
          const where = { place: `${l.operation.method.toUpperCase()} ${l.operation.path}` };
          // The main key: its window of this route holds only what the suite sent there (the ledger).
          const bt = burstTarget(config.baseUrl, path, key);
          const waited = await waitForRoom(plan, rateLimit, burstBound(l, CUSTOM_CONCURRENCY));
          if (waited) verdict.note('rate-limit-wait', `${describeRouteLimit(l)}: waited ${(waited / 1000).toFixed(1)} s for room under the global limit first`);
          const report = await measureLimit({
            target: bt,
            limit: l,
            concurrency: CUSTOM_CONCURRENCY,
            known: plan.knownOfMain(bt.path.split('?')[0]),
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
    },
  );

  test(
    'the limit holds: served up to it, refused beyond it, each 429 with the documented body',
    clauses('RL-1', 'RL-2', 'RL-3', 'ERR-2', 'RL-6'),
    async ({ config, target, spec, validator, verdict }, info) => {
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
    },
  );

  test(
    'once the key is limited, every route the suite uses answers 429 with the documented body',
    clauses('RL-2', 'RL-3', 'ERR-2', 'ERR-3', 'ERR-4'),
    async ({ config, target, spec, validator, verdict }, info) => {
      const rateLimit = config.rateLimit;
      const windowMs = rateLimit.windowSeconds * 1000;
      test.setTimeout(60_000 + 2 * windowMs);
      const plan = burstPlan(config, target);
      const customPaths = customLimitsOf(spec)
        .map((l) => planCustomLimit(l, config, target).path)
        .filter((p): p is string => !!p)
        .map((p) => new URL(`${config.baseUrl}${p}`).pathname);
      const probes = routeProbes(config, spec, target, plan.target.headers, { skipPaths: [pathnameOf(plan), ...customPaths], ledger: readLedger() });
      let sent = 0;
      let refusal: Reply | undefined;
      let answers: Reply[] = [];
      // The window may turn over between the burst and the probes (a short one): then once more.
      for (let round = 1; round <= 2; round++) {
        // Usually still limited from the test before: one request tells, else a burst.
        const first = await sendOne(plan.target);
        const run = first.status === 429 ? { replies: [first] } : await exhaust(plan.target, rateLimit);
        sent += first.status === 429 ? 1 : 1 + run.replies.length;
        refusal = run.replies.find((r) => r.status === 429);
        if (!refusal) break;
        answers = [];
        for (const p of probes) answers.push(await sendOne(p));
        const still = await sendOne(plan.target);
        sent += probes.length + 1;
        if (!isServed(still.status)) break;
      }
      countRequests(info, sent);
      test.skip(!refusal, `the key was never refused (${sent} requests): nothing to compare (RL-2 reports it)`);
      checkRefusalBodies(
        verdict.at({ place: BURST_PLACE, valueClass: RL_CLASSES.limited }),
        spec,
        validator,
        target.runtimeOp,
        [burstExchange(plan.target, refusal!)],
        plan.keys,
      );
      probes.forEach((p, i) => {
        const answer = answers[i];
        const v = verdict.at({ place: p.place, valueClass: RL_CLASSES.limited });
        const ex = burstExchange(p, answer);
        if (answer.status === 429) {
          v.pass('RL-2');
          checkRefusalBodies(v, spec, validator, p.op, [ex], plan.keys);
          return;
        }
        const what = `${p.method} ${p.path.split('?')[0]} answered ${answer.status || 'nothing'} while the key was limited on the runtime route`;
        // "Most routes": a route the global limit does not cover is allowed, unless its own spec says it can be limited.
        verdict.note('rate-limit-route', `${p.place}: ${what}; the global limit does not cover it`);
        if (declares429(p.op)) {
          const text = `${p.place}: ${what}, though the target's spec declares 429 for ${p.op!.method.toUpperCase()} ${p.op!.path}`;
          if (config.strictSpec)
            v.fail({ clause: 'RL-2', title: `${text} (STRICT_SPEC=on)`, received: answer.status, allowed: '429 once the key is over the limit', exchange: ex });
          else verdict.note('spec-drift', text);
        }
      });
      // Per key or per client: the document does not say, so this is a note, never a failure.
      if (plan.otherKey) {
        const other = await sendOne(plan.otherKey);
        countRequests(info, 1);
        verdict.note(
          'rate-limit-per-key',
          isServed(other.status)
            ? `another key (${plan.roles.other!.source}) was still served: the limit is counted per key`
            : `another key (${plan.roles.other!.source}) was answered ${other.status} too: the limit seems counted per client address or per account (the document does not say which)`,
        );
      }
    },
  );

  test(
    'after the window has passed, requests are served again, and the limit holds in a later window too',
    withSlowTag(clauses('RL-5', 'RL-6', 'RL-1', 'RL-2')),
    async ({ config, target, verdict }, info) => {
      const rateLimit = config.rateLimit;
      const windowMs = rateLimit.windowSeconds * 1000;
      const asked = info.config.argv.some((a) => a.includes('@slow'));
      test.skip(
        isSlow(rateLimit.windowSeconds) && !asked,
        `the window is ${rateLimit.windowSeconds} s: recovery takes that long, so it runs when asked (--grep @slow) or with a short RATE_LIMIT_WINDOW_S`,
      );
      test.setTimeout(60_000 + 4 * windowMs + measureBudgetMs(rateLimit));
      const plan = burstPlan(config, target);
      const r = await watchRecovery(plan.target, rateLimit);
      countRequests(info, r.replies.length);
      if (!r.refusal) return test.skip(true, `the limit was never reached (${r.replies.length} requests): nothing to recover from (RL-2 reports it)`);
      verdict.note('rate-limit-recovery', r.waited);
      const v = verdict.at({ place: BURST_PLACE, valueClass: RL_CLASSES.afterWindow });
      const last = r.replies[r.replies.length - 1];
      v.check({
        clause: 'RL-5',
        ok: !!r.served,
        title: `still refused ${secondsBetween(r.refusal.at, last.sentAt)} s after the limit was reached, longer than the ${rateLimit.windowSeconds} s window`,
        received: `${last.status} to the last of ${r.replies.length} requests`,
        allowed: `served again within ${rateLimit.windowSeconds} s`,
        exchange: burstExchange(plan.target, last),
      });
      // The window end observed against the one the 429s announced (a refusal may not move it unannounced).
      const broken = brokenAnnouncement(r.replies);
      if (readLimitHeaders(r.refusal.headers).names.length || broken)
        v.check({
          clause: 'RL-6',
          ok: !broken,
          title: broken ? describeBroken(broken) : '',
          received: broken && `refused ${secondsBetween(broken.refusal.at, broken.later.sentAt)} s after a 429 that announced ${broken.seconds} s`,
          allowed: `served again once the announced wait is over (+${ROUNDING_MS / 1000} s rounding)`,
          exchange: broken && burstExchange(plan.target, broken.later),
        });
      if (!r.served) return;
      // The limit counted again in a later window (fresh for any limiter): right only in the first is no limit either.
      const waitedMs = await waitQuietWindow(plan.lastActivity(), windowMs);
      verdict.note('rate-limit-wait', `waited ${(waitedMs / 1000).toFixed(1)} s for a later window without requests of the suite, to count the limit again`);
      const later = await measureLimit({ ...plan, limit: rateLimit });
      await tell(info, verdict, 'burst in a later window', later);
      judgeLimit(v, later, rateLimit, plan.target, `${allowed(rateLimit)}, in every window`);
    },
  );
});
