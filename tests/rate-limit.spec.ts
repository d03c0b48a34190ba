/**
 * RL-6 (rate-limit headers) without exhausting anything: a few requests in the contract project, beside
 * every other test. The tests that exhaust a limit (RL-1..5, and RL-6 over a whole window) are in
 * tests/rate-limit-burst.spec.ts.
 */
import { readLimitHeaders, type LimitHeaders } from '../support/rate-limit/headers';
import { checkValues } from '../support/rate-limit/header-checks';
import { customLimitsOf } from '../support/rate-limit/custom-limits';
import { isServed, sleep } from '../support/rate-limit/burst';
import { BURST_PLACE, RL_CLASSES } from '../support/rate-limit/places';
import { RUNTIME_VERSIONS } from '../support/document/facts';
import type { Exchange } from '../support/http/exchange';
import { clauses, test } from '../support/test';
import { fillPath } from '../support/spec/target';

test.describe('rate limit: headers', () => {
  test('rate-limit headers agree with the window and with what the target does', clauses('RL-6'), async ({ api, verdict, target, config, spec }) => {
    // A limit of the route's own, where its spec states one: its headers may announce that one or the global one.
    const own = customLimitsOf(spec).find((l) => l.operation === target.runtimeOp);
    const limits = { global: config.rateLimit, ...(own ? { own } : {}) };
    const path = fillPath(target.runtimePath, RUNTIME_VERSIONS[1]);
    const v = verdict.at({ place: BURST_PLACE, valueClass: RL_CLASSES.served });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const seen: Array<{ ex: Exchange; sentAt: number; h: LimitHeaders }> = [];
      for (let i = 0; i < 3; i++) {
        const sentAt = Date.now();
        const ex = await api.call('GET', path);
        seen.push({ ex, sentAt, h: readLimitHeaders(ex.headers) });
      }
      const notServed = seen.find((s) => !isServed(s.ex.status));
      test.skip(
        !!notServed,
        `the runtime operation answered ${notServed?.ex.status}, so its rate-limit headers cannot be compared (see the RT and AUTH clauses)`,
      );
      test.skip(!seen.some((s) => s.h.names.length), 'the target sends no rate-limit headers (Retry-After, RateLimit-*, X-RateLimit-*): nothing to check');
      for (const { ex, h } of seen) {
        const { problems, notes } = checkValues(h, ex.status, limits);
        for (const note of notes) verdict.note('RL-6', note);
        v.check({
          clause: 'RL-6',
          ok: problems.length === 0,
          title: 'rate-limit headers out of their unit or range',
          received: problems,
          allowed: own
            ? `limit = ${config.rateLimit.max} per ${config.rateLimit.windowSeconds} s, or the route's own ${own.max} per ${own.windowSeconds} s; remaining 0..limit - 1 after a served request; reset within the announced window`
            : `limit = ${config.rateLimit.max}; remaining 0..${config.rateLimit.max - 1} after a served request; reset within ${config.rateLimit.windowSeconds} s`,
          exchange: ex,
        });
      }
      // Other tests spend the same key meanwhile, so remaining may fall by more than one; it never rises
      // within one window (a refilling bucket may leave it unchanged), unless the window may have reset.
      let compared = 0;
      for (let i = 0; i + 1 < seen.length; i++) {
        const [a, b] = [seen[i], seen[i + 1]];
        if (a.h.remaining === undefined || b.h.remaining === undefined) continue;
        const sureSameWindow = a.h.reset !== undefined && Date.now() < a.sentAt + (a.h.reset - 1) * 1000;
        if (!sureSameWindow) continue;
        compared++;
        v.check({
          clause: 'RL-6',
          ok: b.h.remaining <= a.h.remaining,
          title: 'the remaining count rose from one request to the next within one window',
          received: `${a.h.remaining} then ${b.h.remaining}`,
          allowed: `at most ${a.h.remaining}`,
          exchange: b.ex,
        });
      }
      if (compared || !seen.some((s) => s.h.remaining !== undefined && s.h.reset !== undefined)) return;
      // The window was about to reset: wait for it and look again.
      await sleep(Math.max(...seen.map((s) => (s.h.reset ?? 1) * 1000)) + 200);
    }
    verdict.note('RL-6', 'remaining could not be compared: every sequence straddled a window reset');
  });
});
