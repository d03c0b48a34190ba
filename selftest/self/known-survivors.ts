/**
 * Survivors that do not fail `npm test`, each with its reason. Empty by default: an entry is a decision,
 * so it says why. Every survivor is reported either way (kill ratio reporter).
 */
import type { FaultCase } from './fault-cases';

export const KNOWN_SURVIVORS: ReadonlyArray<{ fault: string; reason: string }> = [];

/**
 * Lists that measure the suite rather than prove it: the independent faults were written without
 * reading the suite, to estimate how many real bugs it would catch; their survivors are findings for the
 * suite's families, reported with their kill ratio, not a broken self-test. Remove a list here to make
 * its survivors fail `npm test` too.
 */
export const MEASURED_ONLY: ReadonlyArray<FaultCase['source']> = ['independent', 'independent-6', 'independent-7', 'independent-8', 'independent-9'];

export const knownReason = (fault: FaultCase): string | undefined =>
  KNOWN_SURVIVORS.find((k) => k.fault === fault.fault)?.reason ??
  (MEASURED_ONLY.includes(fault.source) ? `${fault.source} list: measured, not required (selftest/self/known-survivors.ts)` : undefined);
