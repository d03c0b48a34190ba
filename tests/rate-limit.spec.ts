/**
 * RL-4 (custom per-route limits stated in the spec) and RL-6 (rate-limit headers) without exhausting
 * the global limit: these run in the contract project, beside every other test, so they never spend
 * more than a small share of the main key's budget. The global burst is tests/rate-limit-burst.spec.ts.
 */
import type { TestInfo } from '@playwright/test';
import { burstBound, measureBudgetMs, measureLimit, ownLimitTag, sleep, type LimitReport } from '../support/rate-limit/measurement';
import { burstTarget, isServed } from '../support/rate-limit/burst';
import { checkRefusalBodies } from '../support/rate-limit/refusal-checks';
import { readLimitHeaders, type LimitHeaders } from '../support/rate-limit/headers';
import type { Config } from '../support/run/config';
import { customLimitsOf, describeRouteLimit, formatWindow, type RouteLimit } from '../support/rate-limit/custom-limits';
import { RUNTIME_VERSIONS } from '../support/document/facts';
import type { Exchange } from '../support/http/exchange';
import { clauses, test } from '../support/fixtures';
import type { OpenAPIV3 } from 'openapi-types';
import { templateKey } from '../support/spec/spec';
import { fillPath, relativeTo, type Target } from '../support/spec/target';
import type { Verdict } from '../support/checks/verdict';

/** A custom limit is burst-tested only when its window can be waited out within a test. */
const MAX_CUSTOM_WINDOW_S = 60;
/** Concurrency for a route's own limit: small limits, so little overshoot. */
const CUSTOM_CONCURRENCY = 4;

const countRequests = (info: TestInfo, n: number) => info.annotations.push({ type: 'requests', description: String(n) });

/** The path to call for a custom-limited operation, or why the suite cannot call it harmlessly. */
function planFor(l: RouteLimit, config: Config, target: Target): { path?: string; reason?: string } {
  const op = l.operation;
  if (op.method !== 'get') return { reason: `${op.method.toUpperCase()} may change state; only GET operations are burst-tested` };
  if (l.windowSeconds > MAX_CUSTOM_WINDOW_S) return { reason: `a window of ${formatWindow(l.windowSeconds)} is too long to wait out (a burst would lock the route that long)` };
  if (burstBound(l, CUSTOM_CONCURRENCY) > config.rateLimit.max / 4) return { reason: `${l.max} requests is more than the suite may spend of the global limit beside the other tests` };
  const params = (op.op.parameters ?? []) as OpenAPIV3.ParameterObject[];
  const needed = params.filter((p) => p?.required && (p.in === 'query' || (p.in === 'header' && p.name.toLowerCase() !== target.accountHeader.toLowerCase())));
  if (needed.length) return { reason: `needs the ${needed[0].in} parameter ${needed[0].name}, which the suite has no harmless value for` };
  const key = templateKey(op.path);
  const path = relativeTo(config.baseUrl, op.path);
  if (!/\{[^}]+\}/.test(op.path)) return { path };
  if (op === target.runtimeOp) return { path: fillPath(path, RUNTIME_VERSIONS[0]) };
  if (target.readCheckOp && key === templateKey(target.readCheckOp.path) && config.checkId) return { path: fillPath(path, config.checkId) };
  return { reason: `needs a value for ${op.path.match(/\{[^}]+\}/)![0]}, which the suite does not know` };
}

function judgeCustom(verdict: Verdict, l: RouteLimit, report: LimitReport): void {
  const o = report.outcome;
  const route = describeRouteLimit(l);
  const allowed = `${l.max} served per ${formatWindow(l.windowSeconds)}, then 429 (as the spec states)`;
  const fresh = `a fresh ${formatWindow(l.windowSeconds)} window`;
  switch (o.kind) {
    case 'holds':
      return verdict.pass('RL-4');
    case 'too-low':
      return verdict.fail('RL-4', `${route}: 429 after only ${o.served} requests in ${fresh}`, `${o.served} served`, allowed);
    case 'too-high':
      return verdict.fail('RL-4', `${route}: ${o.served[0]} requests served in ${fresh} (measured ${o.served.length} times)`, `${o.served.join(', ')} served`, allowed);
    case 'no-limit':
      return verdict.fail('RL-4', `${route}: ${o.sent} requests in ${(o.ms / 1000).toFixed(1)} s, none refused: the route's own limit is not applied`, `${o.sent} served`, allowed);
    case 'wrong-status':
      return verdict.fail('RL-4', `${route}: the limit answered ${o.status} instead of 429 (after ${o.served} served)`, o.status, allowed);
    case 'inconclusive':
      return verdict.fail('RL-4', `${route}: the limit could not be measured: ${o.why}: ${report.story.join(' | ')}`, o.why, allowed);
  }
}

test.describe('rate limit: custom limits and headers', () => {
  test('custom per-route limits stated in the spec hold', { annotation: clauses('RL-4', 'ERR-2') }, async ({ spec, config, target, validator, verdict }, info) => {
    const limits = customLimitsOf(spec);
    for (const l of limits) verdict.note('custom-rate-limit', describeRouteLimit(l));
    test.skip(!limits.length, 'the spec states no custom rate limit in any operation description');
    const plans = limits.map((l) => ({ l, ...planFor(l, config, target) }));
    for (const p of plans) if (p.reason) verdict.note('custom-rate-limit-untested', `${describeRouteLimit(p.l)}: ${p.reason}`);
    test.skip(!config.burst, 'BURST=off: the tests that exhaust a rate limit are skipped');
    const testable = plans.filter((p): p is typeof p & { path: string } => !!p.path);
    test.skip(!testable.length, `none of the ${limits.length} custom limit(s) can be burst-tested: ${plans.map((p) => `${describeRouteLimit(p.l)}: ${p.reason}`).join('; ')}`);
    test.setTimeout(30_000 + testable.reduce((ms, p) => ms + measureBudgetMs(p.l), 0));
    const credentials = { apiKey: config.apiKey, accountId: config.accountId, accountHeader: target.accountHeader };
    let requests = 0;
    try {
      for (const { l, path } of testable) {
        await test.step(describeRouteLimit(l), async () => {
          // Recorded apart from the key's other requests: the target may or may not count them globally.
          const bt = burstTarget(config.baseUrl, path, credentials, ownLimitTag(config.apiKey));
          const report = await measureLimit({ target: bt, limit: l, concurrency: CUSTOM_CONCURRENCY });
          requests += report.requests;
          await info.attach(`burst ${describeRouteLimit(l)}`, { body: report.story.join('\n'), contentType: 'text/plain' });
          judgeCustom(verdict, l, report);
          const replies = report.measurements.flatMap((m) => [...m.replies, ...m.confirmations]);
          if (replies.some((r) => r.status === 429)) checkRefusalBodies(verdict, spec, validator, l.operation, bt, replies, 'RL-4', [config.apiKey]);
        });
      }
    } finally {
      countRequests(info, requests);
    }
  });

  test('rate-limit headers agree with what the target does', { annotation: clauses('RL-6') }, async ({ api, verdict, target }) => {
    const path = fillPath(target.runtimePath, RUNTIME_VERSIONS[1]);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const seen: Array<{ ex: Exchange; sentAt: number; h: LimitHeaders }> = [];
      for (let i = 0; i < 3; i++) {
        const sentAt = Date.now();
        const ex = await api.call('GET', path);
        seen.push({ ex, sentAt, h: readLimitHeaders(ex.headers) });
      }
      const notServed = seen.find((s) => !isServed(s.ex.status));
      test.skip(!!notServed, `the runtime operation answered ${notServed?.ex.status}, so its rate-limit headers cannot be compared (see the RT and AUTH clauses)`);
      test.skip(!seen.some((s) => s.h.names.length), 'the target sends no rate-limit headers (Retry-After, RateLimit-*, X-RateLimit-*): nothing to check');
      for (const { h } of seen) {
        for (const p of h.problems) verdict.fail('RL-6', p, p, 'a number');
        if (h.limit !== undefined) verdict.check('RL-6', Number.isInteger(h.limit) && h.limit > 0, 'the limit header is not a positive whole number', h.limit, 'a positive whole number');
        if (h.remaining !== undefined) {
          verdict.check('RL-6', Number.isInteger(h.remaining) && h.remaining >= 0 && (h.limit === undefined || h.remaining <= h.limit), 'remaining is not a whole number between 0 and the limit', h.remaining, `0..${h.limit ?? 'limit'}`);
        }
        if (h.reset !== undefined) verdict.check('RL-6', h.reset >= 0, 'the reset header names a time in the past', h.reset, 'seconds until the window resets, >= 0');
        if (h.retryAfter !== undefined) verdict.check('RL-6', h.retryAfter > 0, 'Retry-After is not a positive number of seconds', h.retryAfter, '> 0');
      }
      // Remaining must fall from one request to the next, unless the window may have reset in between
      // (other tests spend the same key meanwhile, so it may fall by more than one).
      let compared = 0;
      for (let i = 0; i + 1 < seen.length; i++) {
        const [a, b] = [seen[i], seen[i + 1]];
        if (a.h.remaining === undefined || b.h.remaining === undefined) continue;
        const sureSameWindow = a.h.reset !== undefined && Date.now() < a.sentAt + (a.h.reset - 1) * 1000;
        if (!sureSameWindow) continue;
        compared++;
        verdict.check('RL-6', b.h.remaining < a.h.remaining, 'the remaining count did not fall from one request to the next within one window', `${a.h.remaining} then ${b.h.remaining}`, `less than ${a.h.remaining}`);
      }
      if (compared || !seen.some((s) => s.h.remaining !== undefined && s.h.reset !== undefined)) return;
      // The window was about to reset: wait for it and look again.
      await sleep(Math.max(...seen.map((s) => (s.h.reset ?? 1) * 1000)) + 200);
    }
    verdict.note('RL-6', 'remaining could not be compared: every sequence straddled a window reset');
  });
});
