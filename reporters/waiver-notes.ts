/**
 * What the run made of each waiver: covering failures, expired, or stale (tried and covering nothing, so the fix has probably shipped).
 * A waiver of what the run did not try is none of these: one family's run says nothing of another's waivers.
 */
import { covers, isActive, waiverName, type Waiver } from '../support/checks/waivers';
import { count } from './doc';
import type { Failure } from '../support/checks/failure';
import type { ClauseRow } from '../support/run/report-files';

/** The waivers as the configuration read them, handed to the matrix reporter by playwright.config.ts; `today`: the day (UTC) the run judged them by. */
export type WaiverOptions = { file?: string; entries: Waiver[]; today: string };

export function waiverNotes(options: WaiverOptions | undefined, failures: readonly Failure[], rows: readonly ClauseRow[]) {
  if (!options?.entries.length) return [];
  const name = (w: Waiver) => `${options.file ?? 'waiver file'} ${waiverName(w)}`;
  return options.entries.flatMap((w) => {
    const note = (kind: 'used' | 'expired' | 'stale', failures: number, line: string) => [
      { entry: w.entry, clause: w.clause, until: w.until, kind, failures, line },
    ];
    if (!isActive(w, options.today)) {
      const n = failures.filter((f) => !f.waiver && !f.error && covers(w, f)).length;
      const then = n === 1 ? 'its failure fails the run' : n ? `its ${n} failures fail the run` : 'nothing in this run needed it: delete it';
      return note('expired', n, `waiver expired after ${w.until}: ${name(w)} covers nothing now; ${then}`);
    }
    const n = failures.filter((f) => f.waiver?.entry === w.entry).length;
    if (n) return note('used', n, `waiver used: ${name(w)} covered ${count(n, 'failure')}, until ${w.until}: ${w.reason}`);
    // Tried: its clause ran (not skipped, not uncovered) at its place and value class, if it names them.
    const row = rows.find((r) => r.id === w.clause && ['verified', 'waived', 'failed'].includes(r.status));
    if (!row || (w.place && !row.places.includes(w.place)) || (w.valueClass && !row.valueClasses.includes(w.valueClass))) return [];
    return note('stale', 0, `waiver stale: ${name(w)} covered nothing in this run: delete it once the fix has shipped`);
  });
}
