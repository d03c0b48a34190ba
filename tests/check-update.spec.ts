/**
 * CU and FO: the deprecated check update, against any implementation. Every rule of the table
 * (support/check-update/table.ts) on every check it applies to, each class of value with the
 * document's verdict; atomicity (every refused body carries valid changes of every kind, and a read
 * shows none of them); the update of a check nobody created; and a final restore that leaves the checks
 * as the run found them. The update's method and paths are the target's spec's.
 *
 * The tests change shared state (one or two checks), so they run in order in one worker. That chain is
 * the run's longest job, and Playwright hands jobs out in the order of the files' names: this file sorts
 * before every other family's, so the chain starts at once and the other worker takes the rest beside it.
 */
import { clauses, test } from '../support/test';
import { UPDATE_TESTS } from '../support/check-update/table';

test.describe('deprecated check update', () => {
  test.describe.configure({ mode: 'default' });

  // The final test restores the checks; if it did not run (filtered, failed, interrupted), this does.
  test.afterAll(async ({ checkSessions }) => {
    await checkSessions.finish();
  });

  for (const t of UPDATE_TESTS) {
    for (const check of t.places) {
      test(`${t.title} (${check} check)`, { annotation: clauses(...t.clauses, 'SPEC-9') }, async ({ checkUpdate }) => {
        await checkUpdate.run(t.key, check);
      });
    }
  }

  test('an unknown check id is not found, never updated', { annotation: clauses('CU-8', 'ERR-1', 'ERR-3', 'ERR-4', 'SPEC-9') }, async ({ checkUpdate }) => {
    await checkUpdate.unknownId();
  });

  test('after the run the checks are as they were before it', { annotation: clauses('CU-9', 'SPEC-9') }, async ({ checkUpdate }) => {
    await checkUpdate.restoreAll();
  });
});
