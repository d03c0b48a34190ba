/**
 * The `test` every contract test file imports: the suite's fixtures (fixtures.ts) and each family's
 * (check-update/fixture.ts) as one set. Playwright gives each set of worker fixtures workers of its own;
 * with one set for all files, a worker runs any of them one after another instead of a new worker (about
 * a second of CPU) starting for the file whose fixtures differ. A family's worker fixtures are set up
 * only in the workers whose tests use them.
 */
export { test } from './check-update/fixture';
export { clauses, expect } from './fixtures';
