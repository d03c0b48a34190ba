/** Small pieces of wording both reports share, so the page and the markdown say the same. */
import { clip } from './failures';
import type { ClauseComparison, Comparison, FamilyCount, Limits, SideName, TestComparison } from './types';

/** A test's own title, without its file and describe blocks. */
export const lastTitlePart = (title: string) => title.split(' › ').at(-1) ?? title;

export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "2 more requests differ", "1 more test differs". */
const moreDiffer = (n: number, what: string) => `${count(n, `more ${what}`)} ${n === 1 ? 'differs' : 'differ'}`;

/** Headers one side always sends and the other never, said once. */
export function headersLine(c: Comparison): string {
  const parts = (['A', 'B'] as const).filter((s) => c.headersOnly[s].length).map((s) => `${c.headersOnly[s].join(', ')} only on ${s}`);
  return parts.length ? `In every response: ${parts.join('; ')} (not repeated below).` : '';
}

/** "2 more tests differ: runtime 2025.04 · runtime 2024.09", the tests a clause's details leave out. */
export const moreTests = (rest: readonly TestComparison[]) =>
  `${moreDiffer(rest.length, 'test')}: ${rest
    .slice(0, 5)
    .map((t) => clip(lastTitlePart(t.title), 60))
    .join(' · ')}${rest.length > 5 ? ' · …' : ''}`;

/** The family matrix's last row: each column summed over the families. */
export const familyTotals = (c: Comparison): Omit<FamilyCount, 'family'> => {
  const sum = (k: keyof Omit<FamilyCount, 'family'>) => c.families.reduce((n, f) => n + f[k], 0);
  return { clauses: sum('clauses'), same: sum('same'), aOnly: sum('aOnly'), bOnly: sum('bOnly'), oneSkipped: sum('oneSkipped') };
};

/** What a test's shown requests leave out: the requests that differ beyond the limit, those answered alike. */
export const requestsNote = (t: TestComparison, limits: Limits) => {
  const hidden = t.requests.length - limits.requests;
  return [hidden > 0 ? moreDiffer(hidden, 'request') : '', t.alike ? `${t.alike} answered alike` : ''].filter(Boolean).join('; ');
};

/** "… 2 more failures", for a list cut at `shown`; `all` adds where they all are. */
export const moreFailures = (total: number, shown: number, all = false) =>
  total > shown ? `… ${count(total - shown, 'more failure')}${all ? " (each side's contract-matrix.md has them all)" : ''}` : '';

/** Why a side skipped a clause. */
export const skipLine = (c: ClauseComparison, side: SideName) => `${side} skipped: ${c.reasons[side].join('; ') || 'no reason given'}`;
