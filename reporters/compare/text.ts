/** Small pieces of wording both reports share, so the page and the markdown say the same. */
import { clip } from './failures';
import type { Comparison, FamilyCount, TestComparison } from './types';

/** A test's own title, without its file and describe blocks. */
export const lastTitlePart = (title: string) => title.split(' › ').at(-1) ?? title;

export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "2 more requests differ", "1 more test differs". */
export const moreDiffer = (n: number, what: string) => `${count(n, `more ${what}`)} ${n === 1 ? 'differs' : 'differ'}`;

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

/** A column of the family matrix, summed over the families. */
export const familyTotal = (c: Comparison, k: keyof Omit<FamilyCount, 'family'>) => c.families.reduce((n, f) => n + f[k], 0);
