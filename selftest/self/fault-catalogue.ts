/**
 * The self-test's faults, all lists in one shape (fault-cases.ts), and the runs they are planned into
 * (batch-plan.ts). Faults.spec.ts runs the plan; the kill ratio reporter counts the generated ones.
 */
import { generatedFaults, LISTED_FAULTS } from '../faults';
import { planBatches, type Batch } from './batch-plan';
import { fromGenerated, fromNamed, type FaultCase } from './fault-cases';

export const FAULT_CASES: FaultCase[] = [
  ...LISTED_FAULTS.map((f) => fromNamed(f, f.list)),
  ...Object.entries(generatedFaults()).flatMap(([family, list]) => list.map((f) => fromGenerated(f, family))),
];

let planned: Batch[] | undefined;
/** Planned on first use (a second of CPU): the kill ratio reporter and the unit tests need the cases only. */
export const batches = (): Batch[] => (planned ??= planBatches(FAULT_CASES));
