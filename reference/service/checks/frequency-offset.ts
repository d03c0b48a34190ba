// The frequencyOffset rules (FO-1..3, FO-5), checked against the frequency and check type the check
// will have after the update. Returns a problem text, or null when the pair is allowed.
import type { Faults } from '../../faults';

export function offsetProblem(frequency: number, offset: number, checkType: string, faults: Faults): string | null {
  if (frequency === 0) {
    // ind8-fo-zero-denylist-browser: "API checks only" enforced as "not for browser checks".
    const notAllowed = faults.has('ind8-fo-zero-denylist-browser') ? checkType === 'BROWSER' : checkType !== 'API';
    if (notAllowed && !faults.has('fo-zero-browser')) return 'frequency 0 is only allowed for API checks';
    if (faults.has('fo-zero-any') && Number.isInteger(offset) && offset >= 1) return null;
    // ind6-fo-zero-range: "10, 20 or 30" read as the range 10..30.
    if (faults.has('ind6-fo-zero-range') && offset >= 10 && offset <= 30) return null;
    if (![10, 20, 30].includes(offset)) return 'with frequency 0, frequencyOffset must be 10, 20 or 30';
    // ind8-fo-zero-switch-fallthrough: the case for frequency 0 lacks its break, so the range case below runs too (1..floor(0 * 10)).
    if (!faults.has('ind8-fo-zero-switch-fallthrough')) return null;
  }
  // ind7-fo-browser-range-unchecked: the offset ranges written for the API checks' scheduler, and checked for those only.
  if (faults.has('ind7-fo-browser-range-unchecked') && checkType !== 'API') return null;
  // ind6-fo-sixty-high-rule: the boundary read as "60 and above" for the hourly rule.
  const low = faults.has('ind6-fo-sixty-high-rule') ? frequency < 60 : frequency <= 60;
  // ind9-fo-hourly-in-hours: the hourly rule fed the frequency already converted to hours (the scheduler's unit above 60), then divided by 60 again.
  const hourly = faults.has('ind9-fo-hourly-in-hours') ? frequency / 60 : frequency;
  let max = low ? Math.floor(frequency * 10) : Math.ceil(hourly / 60);
  if (low && faults.has('fo-upper-off-by-one-low')) max += 1;
  if (!low && faults.has('fo-upper-off-by-one-high')) max += 1;
  if (faults.has('fo-too-strict')) max -= 1;
  const min = faults.has('fo-offset-zero') ? 0 : 1;
  return offset >= min && offset <= max ? null : `with frequency ${frequency}, frequencyOffset must be between 1 and ${max}`;
}
