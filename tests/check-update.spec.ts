/**
 * CU and FO: the deprecated check update, against any implementation. Every rule (support/check-update/
 * value-rules.ts, offset-rules.ts) on every check it applies to, each class of value with the
 * document's verdict; atomicity (every refused body carries valid changes of every kind, and a read
 * shows none of them), whatever the update was refused for (credentials, account, query, body); the update of a check nobody created; and a final restore that leaves the checks
 * as the run found them. The update's method and paths are the target's spec's.
 *
 * Each check's tests change that check, so they run in order in one worker: two chains, one per check,
 * side by side in two workers (against a distant target each request waits a round trip, and the
 * chains are the run's longest jobs). Playwright hands jobs out in the order of the files' names: this
 * file sorts before every other family's, so the chains start at once.
 */
import { clauses, test } from '../support/test';
import { CHECK_KINDS, UPDATE_TESTS } from '../support/check-update/table';

for (const check of CHECK_KINDS) {
  test.describe(`deprecated check update, ${check} check`, () => {
    test.describe.configure({ mode: 'default' });

    // The final test restores the check; if it did not run (filtered, failed, interrupted), this does.
    test.afterAll(async ({ checkSessions }) => {
      await checkSessions.finish();
    });

    for (const t of UPDATE_TESTS.filter((u) => u.places.includes(check))) {
      test(`${t.title} (${check} check)`, clauses(...t.clauses, 'SPEC-9'), async ({ checkUpdate }) => {
        await checkUpdate.run(t, check);
      });
    }

    test(
      `an update refused for its credentials, account header, query parameter or body changes nothing (${check} check)`,
      clauses('CU-7', 'AUTH-1', 'AUTH-2', 'AUTH-3', 'AUTH-5', 'AUTH-6', 'CU-2', 'ERR-3', 'ERR-4'),
      async ({ checkUpdate }) => {
        await checkUpdate.rejections(check);
      },
    );

    if (check === 'api') {
      test('an unknown check id is not found, never updated', clauses('CU-8', 'ERR-1', 'ERR-3', 'ERR-4', 'SPEC-9'), async ({ checkUpdate }) => {
        await checkUpdate.unknownId();
      });
    }

    test(`after the run the ${check} check is as it was before it`, clauses('CU-9', 'CU-7', 'CU-1', 'SPEC-9'), async ({ checkUpdate }) => {
      await checkUpdate.restore(check);
    });
  });
}
