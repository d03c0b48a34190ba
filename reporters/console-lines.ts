/** The lines the console gives a finished run: a line per skip reason and per failed clause, the details left to the reports. */
import type { TestError } from '@playwright/test/reporter';
import { count } from './doc';
import type { ClauseRow } from './clause-matrix';

/** Longest received value on a console line: a body belongs in the reports. */
const MAX_RECEIVED = 80;

const ids = (rows: readonly ClauseRow[]) => rows.map((r) => r.id).join(', ');

/** The skipped clauses, one line per reason (a test skipped for a reason names its clauses). */
export function skipLines(rows: readonly ClauseRow[]): string[] {
  const skipped = rows.filter((r) => r.status === 'skipped');
  const reasons = [...new Set(skipped.flatMap((r) => (r.reasons.length ? r.reasons : ['no reason given'])))];
  return reasons.map(
    (reason) => `skipped ${ids(skipped.filter((r) => r.reasons.includes(reason) || (!r.reasons.length && reason === 'no reason given')))}: ${reason}`,
  );
}

/** A failed clause in one line: how many failures at how many places, the first value received, where the details are. */
export function clauseLines(rows: readonly ClauseRow[], details: string): string[] {
  return rows
    .filter((r) => r.status === 'failed')
    .map((r) => {
      const standing = r.failures.filter((f) => !f.waiver);
      const first = standing[0];
      // A clause failed by a test's error alone, or whose failures the matrix capped away: no value to show.
      if (!first) return `✗ ${r.id} failed; details: ${details}`;
      const places = new Set(standing.map((f) => f.place ?? '')).size;
      const received = first.received.length > MAX_RECEIVED ? `${first.received.slice(0, MAX_RECEIVED)}…` : first.received;
      return `✗ ${r.id} failed: ${count(standing.length, 'failure')} at ${count(places, 'place')}; first: ${first.title} (received ${received}); details: ${details}`;
    });
}

/**
 * Playwright's error for a selection that matched no test (--grep, a file filter): its only signal, so it is known by its text.
 * The selection's mistake exits 3, not 1 (see clause-matrix.ts).
 */
export const isNoTestsError = (e: TestError) => /^(Error: )?No tests found\b/.test(e.message ?? '');
