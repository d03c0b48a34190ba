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
 * what the 429s announce (recovery.ts). The steps are in support/rate-limit/ (burst-tests.ts, limited-tests.ts).
 */
import { customLimitsHold, globalLimitHolds, withSlowTag } from '../support/rate-limit/burst-tests';
import { everyRouteRefused, recoversAfterWindow } from '../support/rate-limit/limited-tests';
import { writeLastRun } from '../support/rate-limit/known-prior';
import { readLedger } from '../support/http/request-ledger';
import { lastLock } from '../support/run/schedule';
import { clauses, test } from '../support/test';

// @burst: what a sharded run leaves out of its shards and runs alone (examples/github-actions-sharded.yml).
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

  // Each body names its fixtures (Playwright sets up those only): passed as it is, not called from another.
  test('custom per-route limits stated in the spec hold', clauses('RL-4', 'RL-3', 'ERR-2', 'RL-6'), customLimitsHold);
  test(
    'the limit holds: served up to it, refused beyond it, each 429 with the documented body',
    clauses('RL-1', 'RL-2', 'RL-3', 'ERR-2', 'RL-6'),
    globalLimitHolds,
  );
  test(
    'once the key is limited, every route the suite uses answers 429 with the documented body',
    clauses('RL-2', 'RL-3', 'ERR-2', 'ERR-3', 'ERR-4'),
    everyRouteRefused,
  );
  test(
    'after the window has passed, requests are served again, and the limit holds in a later window too',
    withSlowTag(clauses('RL-5', 'RL-6', 'RL-1', 'RL-2')),
    recoversAfterWindow,
  );
});
