/**
 * The burst tests once the key is limited: every other route refuses too (RL-2, RL-3, ERR-2..4), and
 * after the window the key is served again, then limited again in a later window (RL-5, RL-6, RL-1,
 * RL-2). Each is a test's body, as in burst-tests.ts.
 */
import type { TestInfo } from '@playwright/test';
import { readLedger } from '../http/request-ledger';
import { test } from '../test';
import { isServed, sendOne, type Reply } from './burst';
import { allowed, countRequests, isSlow, pathnameOf, secondsBetween, tell, type BurstContext } from './burst-tests';
import { customLimitsOf, planCustomLimit } from './custom-limits';
import { brokenAnnouncement, readLimitHeaders, ROUNDING_MS } from './headers';
import { burstExchange, checkRefusalBodies, judgeLimit } from './judge';
import { exhaust, measureBudgetMs, measureLimit, waitQuietWindow } from './measurement';
import { BURST_PLACE, RL_CLASSES } from './places';
import { burstPlan } from './plan';
import { watchRecovery } from './recovery';
import { declares429, routeProbes } from './route-probes';

/** RL-2 and RL-3 on every route the suite uses, while the burst key is limited on the runtime route. */
export async function everyRouteRefused({ config, target, spec, validator, verdict }: BurstContext, info: TestInfo): Promise<void> {
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
    const request = `${p.method} ${p.path.split('?')[0]}`;
    const what = `${request} answered ${answer.status || 'nothing'} while the key was limited on the runtime route`;
    // "Most routes": a route the global limit does not cover is allowed, unless its own spec says it can be limited.
    verdict.note('rate-limit-route', `${p.place}: ${what}; the global limit does not cover it`);
    if (declares429(p.op)) {
      const declared = `though the target's spec declares 429 for ${p.op!.method.toUpperCase()} ${p.op!.path}`;
      const title = `${p.place}: ${request} was not refused while the key was limited on the runtime route, ${declared} (STRICT_SPEC=on)`;
      if (config.strictSpec) v.fail({ clause: 'RL-2', title, received: answer.status, allowed: '429 once the key is over the limit', exchange: ex });
      else verdict.note('spec-drift', `${p.place}: ${what}, ${declared}`);
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
}

/** RL-5: served again after the window, as the 429s announced (RL-6); then the limit counted again in a later window (RL-1, RL-2). */
export async function recoversAfterWindow({ config, target, verdict }: BurstContext, info: TestInfo): Promise<void> {
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
    title: 'still refused after the limit was reached, longer than the window',
    received: `${last.status} to the last of ${r.replies.length} requests, ${secondsBetween(r.refusal.at, last.sentAt)} s after the limit was reached`,
    allowed: `served again within ${rateLimit.windowSeconds} s`,
    exchange: burstExchange(plan.target, last),
  });
  // The window end observed against the one the 429s announced (a refusal may not move it unannounced).
  const broken = brokenAnnouncement(r.replies);
  if (readLimitHeaders(r.refusal.headers).names.length || broken)
    v.check({
      clause: 'RL-6',
      ok: !broken,
      field: broken?.header,
      title: broken ? "of a 429 was waited out, yet the key's next request was refused again" : '',
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
}
