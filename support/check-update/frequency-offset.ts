/**
 * The one oracle of frequencyOffset (FO-1..FO-5), written from the document's three rules and the
 * API-checks-only rule for frequency 0. Pure: no spec, no target. Every FO cell the suite sends asks
 * this function whether the target must accept it, and under which clause.
 */
import { SUB_MINUTE_CHECK_TYPE, SUB_MINUTE_OFFSETS } from '../document/facts';

export type OffsetClause = 'FO-1' | 'FO-2' | 'FO-3' | 'FO-4' | 'FO-5';

export interface OffsetRuling {
  accepted: boolean;
  /** The clause that decides the case. */
  clause: OffsetClause;
  reason: string;
}

/**
 * An offset as a reason quotes it. Total: it never throws, whatever the value (an object whose toString
 * is not callable, a null prototype, a cycle, a BigInt, a revoked proxy): each way of writing the value
 * is tried in turn, and the last one, typeof, cannot fail.
 */
export function show(v: unknown): string {
  const attempts: Array<() => unknown> =
    v !== null && (typeof v === 'object' || typeof v === 'function')
      ? [() => JSON.stringify(v), () => String(v), () => Object.prototype.toString.call(v)]
      : [() => (typeof v === 'string' ? JSON.stringify(v) : String(v))];
  for (const attempt of attempts) {
    try {
      const text = attempt();
      if (typeof text === 'string') return text.length > 200 ? `${text.slice(0, 200)}…` : text;
    } catch {
      // the next way
    }
  }
  return `(a value of type ${typeof v})`;
}

/** The largest offset the document allows for a frequency above 0 (rules 2 and 3). */
export function maxOffset(frequency: number): number {
  assertFrequency(frequency);
  if (frequency === 0) return Math.max(...SUB_MINUTE_OFFSETS);
  return frequency <= 60 ? Math.floor(frequency * 10) : Math.ceil(frequency / 60);
}

/** Every offset the document allows for a frequency (any check type that may have it). */
export function allowedOffsets(frequency: number): number[] {
  if (frequency === 0) return [...SUB_MINUTE_OFFSETS];
  return Array.from({ length: maxOffset(frequency) }, (_, i) => i + 1);
}

/** The clause that governs a frequency's range (FO-1, FO-2 or FO-3). */
export const rangeClause = (frequency: number): OffsetClause => (frequency === 0 ? 'FO-1' : frequency <= 60 ? 'FO-2' : 'FO-3');

/**
 * Whether the document allows `offset` on a check of `checkType` whose frequency, after the update, is
 * `frequency`. The order matters only for the clause named: frequency 0 on a non-API check is rejected
 * whatever the offset (FO-5); then anything that is not an integer >= 1 (FO-4); then the range rules.
 */
export function frequencyOffsetRuling(checkType: string, frequency: number, offset: unknown): OffsetRuling {
  assertFrequency(frequency);
  if (frequency === 0 && checkType !== SUB_MINUTE_CHECK_TYPE) {
    return { accepted: false, clause: 'FO-5', reason: `frequency 0 is for ${SUB_MINUTE_CHECK_TYPE} checks only, not ${checkType}` };
  }
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 1) {
    return { accepted: false, clause: 'FO-4', reason: `frequencyOffset ${show(offset)} is not an integer >= 1` };
  }
  const clause = rangeClause(frequency);
  if (frequency === 0) {
    const ok = (SUB_MINUTE_OFFSETS as readonly number[]).includes(offset);
    return { accepted: ok, clause, reason: `frequency 0 allows offsets ${SUB_MINUTE_OFFSETS.join(', ')}; ${offset} is ${ok ? '' : 'not '}one of them` };
  }
  const max = maxOffset(frequency);
  const rule = frequency <= 60 ? `floor(${frequency} * 10)` : `ceil(${frequency} / 60)`;
  const ok = offset <= max;
  return { accepted: ok, clause, reason: `frequency ${frequency} allows offsets 1..${max} (${rule}); ${offset} is ${ok ? 'inside' : 'outside'}` };
}

function assertFrequency(frequency: number): void {
  if (typeof frequency !== 'number' || !Number.isFinite(frequency) || frequency < 0) {
    throw new RangeError(`frequency must be a number >= 0, got ${show(frequency)}`);
  }
}
