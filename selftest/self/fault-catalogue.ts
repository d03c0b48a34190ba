/**
 * The self-test's faults, all lists in one shape (fault-cases.ts), and the runs they are planned into
 * (batch-plan.ts). Faults.spec.ts runs the plan; the kill ratio reporter counts the generated ones.
 */
import {
  ALL_FAULTS,
  generatedFaults,
  INDEPENDENT_FAULTS,
  INDEPENDENT_FAULTS_6,
  INDEPENDENT_FAULTS_7,
  INDEPENDENT_FAULTS_8,
  INDEPENDENT_FAULTS_9,
} from '../faults';
import { planBatches, type Batch } from './batch-plan';
import { fromGenerated, fromHandWritten, fromIndependent, type FaultCase } from './fault-cases';

export const FAULT_CASES: FaultCase[] = [
  ...ALL_FAULTS.map((f) => fromHandWritten(f)),
  ...INDEPENDENT_FAULTS.map((f) => fromIndependent(f)),
  ...INDEPENDENT_FAULTS_6.map((f) => fromIndependent(f, 'independent-6')),
  ...INDEPENDENT_FAULTS_7.map((f) => fromIndependent(f, 'independent-7')),
  ...INDEPENDENT_FAULTS_8.map((f) => fromIndependent(f, 'independent-8')),
  ...INDEPENDENT_FAULTS_9.map((f) => fromIndependent(f, 'independent-9')),
  ...Object.entries(generatedFaults()).flatMap(([family, list]) => list.map((f) => fromGenerated(f, family))),
];

let planned: Batch[] | undefined;
/** Planned on first use (a second of CPU): the kill ratio reporter and the unit tests need the cases only. */
export const batches = (): Batch[] => (planned ??= planBatches(FAULT_CASES));
