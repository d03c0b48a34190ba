/** The one oracle of frequencyOffset (FO-1..FO-5), from the document's rules alone: every FO cell asks it whether the target must accept it, and under which clause. */
import type { ClauseId } from '../document/clauses';
import { SUB_MINUTE_CHECK_TYPE, SUB_MINUTE_OFFSETS } from '../document/facts';

/** The largest offset the document allows for a frequency (rules 1 to 3). */
export function maxOffset(frequency: number): number {
  if (frequency === 0) return Math.max(...SUB_MINUTE_OFFSETS);
  return frequency <= 60 ? Math.floor(frequency * 10) : Math.ceil(frequency / 60);
}

/** Whether the document allows `offset` at the check's type and frequency after the update, and which clause decides (FO-5, then FO-4, then the range). */
export function frequencyOffsetRuling(checkType: string, frequency: number, offset: unknown): { accepted: boolean; clause: ClauseId } {
  if (frequency === 0 && checkType !== SUB_MINUTE_CHECK_TYPE) return { accepted: false, clause: 'FO-5' };
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 1) return { accepted: false, clause: 'FO-4' };
  if (frequency === 0) return { accepted: (SUB_MINUTE_OFFSETS as readonly number[]).includes(offset), clause: 'FO-1' };
  return { accepted: offset <= maxOffset(frequency), clause: frequency <= 60 ? 'FO-2' : 'FO-3' };
}
