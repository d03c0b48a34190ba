/** Small pieces of wording both reports share, so the page and the markdown say the same. */
import type { Comparison } from './types';

export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "2 more requests differ", "1 more test differs". */
export const moreDiffer = (n: number, what: string) => `${count(n, `more ${what}`)} ${n === 1 ? 'differs' : 'differ'}`;

/** Headers one side always sends and the other never, said once. */
export function headersLine(c: Comparison): string {
  const parts = (['A', 'B'] as const).filter((s) => c.headersOnly[s].length).map((s) => `${c.headersOnly[s].join(', ')} only on ${s}`);
  return parts.length ? `In every response: ${parts.join('; ')} (not repeated below).` : '';
}
