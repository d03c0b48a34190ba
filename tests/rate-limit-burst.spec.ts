/**
 * RL-1, RL-2, RL-3, RL-5 and RL-6 by exhausting the rate limit. This file is the 'rate-limit' project:
 * it runs after every other test (the contract project's teardown, whatever its outcome), in order, so
 * that using up a key's budget starves nobody. BURST=off skips it, for production targets.
 *
 * The burst uses the second key when there is one: the contract tests leave it untouched, so its window
 * holds nothing the request ledger has to explain, and the main key stays free for the per-key check.
 * Without a second key the main key is used and the ledger accounts for what the suite sent with it.
 */
import type { TestInfo } from '@playwright/test';
import { burst, burstTarget, isServed, type Reply } from '../support/rate-limit/burst';
import { checkRefusalBodies } from '../support/rate-limit/refusal-checks';
import { exhaust, ledgerPrior, measureBudgetMs, measureLimit, sleep, windowMargin, type LimitReport } from '../support/rate-limit/measurement';
import { readLimitHeaders } from '../support/rate-limit/headers';
import { getConfig, type Config } from '../support/run/config';
import { RUNTIME_VERSIONS } from '../support/document/facts';
import { clauses, test } from '../support/fixtures';
import { fillPath, type Target } from '../support/spec/target';
import type { Verdict } from '../support/checks/verdict';

const { rateLimit } = getConfig();
const windowMs = rateLimit.windowSeconds * 1000;
/** Recovery waits out a whole window: by default only when that is short. */
const SLOW = rateLimit.windowSeconds > 10;

const keyOf = (config: Config, which: 'burst' | 'other') =>
  which === 'burst' ? (config.second ?? { apiKey: config.apiKey, accountId: config.accountId }) : { apiKey: config.apiKey, accountId: config.accountId };

const targetFor = (config: Config, target: Target, which: 'burst' | 'other') =>
  burstTarget(config.baseUrl, fillPath(target.runtimePath, RUNTIME_VERSIONS[0]), { ...keyOf(config, which), accountHeader: target.accountHeader });

const countRequests = (info: TestInfo, n: number) => info.annotations.push({ type: 'requests', description: String(n) });

const secondsBetween = (from: number, to: number) => ((to - from) / 1000).toFixed(1);

test.describe('rate limit: burst', () => {
  test.beforeEach(({ config }) => {
    test.skip(!config.burst, 'BURST=off: the tests that exhaust the rate limit are skipped');
  });

  test('the limit holds: served up to it, refused beyond it, each 429 with the documented body', { annotation: clauses('RL-1', 'RL-2', 'RL-3', 'ERR-2', 'RL-6') }, async ({ config, target, spec, validator, verdict }, info) => {
    test.setTimeout(30_000 + measureBudgetMs(rateLimit));
    const key = keyOf(config, 'burst');
    const bt = targetFor(config, target, 'burst');
    const report = await measureLimit({ target: bt, limit: rateLimit, prior: (since) => ledgerPrior(key.apiKey, since) });
    countRequests(info, report.requests);
    await info.attach('burst', { body: report.story.join('\n'), contentType: 'text/plain' });
    verdict.note('burst', report.story.join(' | '));
    judge(verdict, report, rateLimit.max, rateLimit.windowSeconds);

    const replies = report.measurements.flatMap((m) => [...m.replies, ...m.confirmations]);
    if (replies.some((r) => r.status === 429)) checkRefusalBodies(verdict, spec, validator, target.runtimeOp, bt, replies, 'RL-3', [key.apiKey]);
    else verdict.note('RL-3', 'no 429 came back, so no 429 body to check (see RL-2)');
    checkBurstHeaders(verdict, report);
  });

  test('the limit is counted per API key, not per client address', { annotation: clauses('RL-1') }, async ({ config, target, verdict }, info) => {
    test.setTimeout(30_000 + 2 * windowMs);
    test.skip(!config.second, 'SECOND_API_KEY and SECOND_ACCOUNT_ID are not set: a second key is needed to tell a per-key limit from a per-IP one');
    const exhausted = await exhaust(targetFor(config, target, 'burst'), rateLimit);
    let sent = exhausted.replies.length;
    const refusal = exhausted.replies.find((r) => !isServed(r.status) && r.status !== 0);
    test.skip(!refusal, `the second key was never refused (${sent} requests): without a limit there is nothing to compare (RL-2 reports it)`);
    // The other key must still have room: the ledger says what the suite spent of it in this window.
    const other = keyOf(config, 'other');
    const spent = ledgerPrior(other.apiKey, Date.now() - windowMs);
    test.skip(spent.counted + spent.uncertain + 3 > rateLimit.max, `the main key already sent ${spent.counted} requests in this window: no room left to compare`);
    const probe = await burst(targetFor(config, target, 'other'), { concurrency: 1, maxRequests: 3 });
    sent += probe.replies.length;
    countRequests(info, sent);
    const refused = probe.replies.filter((r) => !isServed(r.status));
    verdict.check(
      'RL-1',
      refused.length === 0,
      `right after the second key used up its limit, the main key was refused although it sent only ${spent.counted} request(s) in this window: the limit is not counted per key`,
      refused.map((r) => r.status),
      `the main key served (${rateLimit.max} per ${rateLimit.windowSeconds} s for each key)`,
    );
  });

  test('after the window has passed, requests are served again', { tag: SLOW ? ['@slow'] : [], annotation: clauses('RL-5', 'RL-6') }, async ({ config, target, verdict }, info) => {
    const asked = info.config.argv.some((a) => a.includes('@slow'));
    test.skip(SLOW && !asked, `the window is ${rateLimit.windowSeconds} s: recovery takes that long, so it runs when asked (--grep @slow) or with a short RATE_LIMIT_WINDOW_S`);
    test.setTimeout(60_000 + 3 * windowMs);
    const bt = targetFor(config, target, 'burst');
    const exhausted = await exhaust(bt, rateLimit);
    let sent = exhausted.replies.length;
    const refusal = exhausted.replies.find((r) => !isServed(r.status) && r.status !== 0);
    if (!refusal) countRequests(info, sent);
    test.skip(!refusal, `the limit was never reached (${sent} requests): nothing to recover from (RL-2 reports it)`);
    const limitedAt = refusal!.at;
    const h = readLimitHeaders(refusal!.headers, refusal!.at);
    const announced = h.retryAfter ?? h.reset;
    // Wait as the 429 says when that is plausible, else a window; then ask until served, at most a window and a bit.
    const firstTry = announced !== undefined && announced > 0 && announced <= rateLimit.windowSeconds + 1 ? announced * 1000 : windowMs;
    await sleep(limitedAt + firstTry + 100 - Date.now());
    const step = Math.max(100, Math.min(1000, windowMs / 20));
    const giveUpAt = limitedAt + windowMs + windowMargin(windowMs) + 1500;
    let served: Reply | undefined;
    for (;;) {
      const probe = await burst(bt, { concurrency: 1, maxRequests: 1 });
      sent += 1;
      if (isServed(probe.replies[0].status)) {
        served = probe.replies[0];
        break;
      }
      if (Date.now() >= giveUpAt) break;
      await sleep(step);
    }
    countRequests(info, sent);
    verdict.check(
      'RL-5',
      !!served,
      `still refused ${secondsBetween(limitedAt, Date.now())} s after the limit was reached, longer than the ${rateLimit.windowSeconds} s window`,
      `${sent - exhausted.replies.length} requests after waiting, none served`,
      `served again within ${rateLimit.windowSeconds} s`,
    );
    if (announced !== undefined && served) {
      verdict.check(
        'RL-6',
        served.sentAt <= limitedAt + (announced + 1) * 1000,
        `the 429 announced ${announced} s (${h.retryAfter !== undefined ? 'Retry-After' : 'reset header'}) but requests were served again only after ${secondsBetween(limitedAt, served.sentAt)} s`,
        `${secondsBetween(limitedAt, served.sentAt)} s`,
        `served again within the announced ${announced} s (+1 s rounding)`,
      );
    } else if (announced !== undefined) {
      verdict.fail('RL-6', `the 429 announced a wait of ${announced} s, but requests were still refused ${secondsBetween(limitedAt, Date.now())} s later`, announced, 'served again once the announced wait is over');
    }
  });
});

/** RL-1 and RL-2 from the burst's outcome; the attempts behind it are in the 'burst' attachment. */
function judge(verdict: Verdict, report: LimitReport, max: number, windowSeconds: number): void {
  const o = report.outcome;
  const allowed = `${max} served per ${windowSeconds} s, then 429`;
  const fresh = `a fresh ${windowSeconds} s window`;
  switch (o.kind) {
    case 'holds':
      verdict.pass('RL-1');
      verdict.pass('RL-2');
      return;
    case 'too-low':
      verdict.fail('RL-1', `429 after only ${o.served} requests in ${fresh}, fewer than the limit of ${max}`, `${o.served} served`, allowed);
      verdict.pass('RL-2');
      return;
    case 'too-high':
      verdict.pass('RL-1');
      verdict.fail('RL-2', `${o.served[0]} requests served in ${fresh} (measured ${o.served.length} times), more than the limit of ${max}`, `${o.served.join(', ')} served`, allowed);
      return;
    case 'no-limit':
      verdict.pass('RL-1');
      verdict.fail('RL-2', `${o.sent} requests in ${(o.ms / 1000).toFixed(1)} s, none refused`, `${o.sent} served, no 429`, allowed);
      return;
    case 'wrong-status':
      verdict.fail('RL-2', `the limit answered ${o.status} instead of 429 (after ${o.served} served)`, o.status, allowed);
      return;
    case 'inconclusive':
      verdict.fail('RL-2', `the limit could not be measured: ${o.why}: ${report.story.join(' | ')}`, o.why, allowed);
  }
}

/** RL-6 on the burst: where the target sends rate-limit headers, they tell what it did. */
function checkBurstHeaders(verdict: Verdict, report: LimitReport): void {
  const replies = report.measurements.flatMap((m) => [...m.replies, ...m.confirmations]);
  if (!replies.some((r) => readLimitHeaders(r.headers).names.length)) {
    verdict.note('RL-6', 'the target sends no rate-limit headers (Retry-After, RateLimit-*, X-RateLimit-*): nothing to check');
    return;
  }
  const limited = replies.filter((r) => r.status === 429).map((r) => ({ r, h: readLimitHeaders(r.headers, r.at) }));
  const problems = new Map<string, number>();
  const note = (p: string) => problems.set(p, (problems.get(p) ?? 0) + 1);
  for (const { h } of limited) {
    for (const p of h.problems) note(p);
    if (h.retryAfter !== undefined && !(h.retryAfter > 0)) note(`Retry-After ${h.retryAfter} on a 429 is not a positive number of seconds`);
    if (h.remaining !== undefined && h.remaining !== 0) note(`a 429 says ${h.remaining} requests remain`);
    if (h.reset !== undefined && !(h.reset > 0)) note(`a 429 says the window resets ${-h.reset} s ago, not in the future`);
  }
  const o = report.outcome;
  const measured = o.kind === 'holds' ? o.limit : o.kind === 'too-low' ? o.served : o.kind === 'too-high' ? o.served[o.served.length - 1] : undefined;
  const stated = [...new Set(limited.map(({ h }) => h.limit).filter((n): n is number => n !== undefined))];
  const last = report.measurements[report.measurements.length - 1];
  if (measured !== undefined && stated.length && !stated.includes(measured)) {
    note(`the limit header says ${stated.join('/')} but ${measured} requests were served in the window`);
  }
  // Remaining falls: in the decisive burst the last request served had none left.
  const remaining = last.replies.filter((r) => isServed(r.status)).map((r) => readLimitHeaders(r.headers).remaining).filter((n): n is number => n !== undefined);
  if (o.kind === 'holds' && remaining.length >= 2 && Math.min(...remaining) !== 0) {
    note(`remaining never reached 0 over ${remaining.length} served requests up to the limit (lowest ${Math.min(...remaining)}, highest ${Math.max(...remaining)})`);
  }
  const list = [...problems].map(([p, n]) => (n > 1 ? `${p} (×${n})` : p));
  verdict.check('RL-6', list.length === 0, `rate-limit headers disagree with what the target did: ${list.join('; ')}`, list, 'remaining falls to 0 at the limit, reset in the future, Retry-After a positive number of seconds, the limit header equal to the limit served');
}
