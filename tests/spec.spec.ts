/**
 * SPEC: the target's machine-readable specification, read as it is served. The checks come from the
 * table (support/spec/checks.ts), one test each. A broken document fails SPEC-1 and is still read as
 * far as it can be, so every other clause is still tested; no document at all (a 404, an HTML page)
 * fails SPEC-1 and leaves nothing else to test (support/fixtures.ts).
 */
import { SPEC_CHECKS } from '../support/spec/checks';
import { clauses, test as base } from '../support/test';

/** Every check of this file is about the document: stamped at place `spec` (the matrix's "tried at"). */
const test = base.extend({ verdict: [async ({ verdict }, use) => use(verdict.at({ place: 'spec' })), { scope: 'test', box: 'self' }] });

test.describe('machine-readable specification', () => {
  // The check is the body itself, not called from one: Playwright sets up the fixtures its parameters name, and only those.
  for (const { title, clauses: ids, check } of SPEC_CHECKS) test(title, clauses(...ids), check);
});
