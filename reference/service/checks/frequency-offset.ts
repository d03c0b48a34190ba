// The frequencyOffset rules (FO-1..3, FO-5), checked against the frequency and check type the check
// will have after the update. Each returns a problem text, or null when the pair is allowed.

/** FO-1: at frequency 0 the offset is the run interval in seconds, one of these. */
export const SUB_MINUTE_OFFSETS: readonly number[] = [10, 20, 30];

/** FO-2, FO-3: the largest offset a frequency above 0 allows (floor(f * 10) up to 60 minutes, ceil(f / 60) above). */
export const maxOffset = (frequency: number): number => (frequency <= 60 ? Math.floor(frequency * 10) : Math.ceil(frequency / 60));

/** FO-2, FO-3: the offset is between 1 and the frequency's largest one. */
export const rangeProblem = (frequency: number, offset: number, max: number): string | null =>
  offset >= 1 && offset <= max ? null : `with frequency ${frequency}, frequencyOffset must be between 1 and ${max}`;

/** FO-1..3, FO-5: frequency 0 is for API checks only, with a sub-minute offset; above it, the range of the frequency. */
export function offsetProblem(frequency: number, offset: number, checkType: string, max: (frequency: number) => number): string | null {
  if (frequency === 0) {
    if (checkType !== 'API') return 'frequency 0 is only allowed for API checks';
    return SUB_MINUTE_OFFSETS.includes(offset) ? null : 'with frequency 0, frequencyOffset must be 10, 20 or 30';
  }
  return rangeProblem(frequency, offset, max(frequency));
}
