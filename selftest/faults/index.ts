/** Every injected fault the self-test runs: the hand-written lists, the independent one, the generated ones. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CHECK_UPDATE_FAULTS } from './check-update';
import { FOUNDATION_FAULTS } from './foundation';
import { INDEPENDENT_FAULTS, INDEPENDENT_FAULTS_6, INDEPENDENT_FAULTS_7, INDEPENDENT_FAULTS_8, INDEPENDENT_FAULTS_9 } from './independent';
import { RATE_LIMIT_FAULTS } from './rate-limit';
import { REQUEST_LENS_FAULTS } from './request-lens';
import type { FaultExpectation, GeneratedFault } from './types';

export const ALL_FAULTS: FaultExpectation[] = [...FOUNDATION_FAULTS, ...CHECK_UPDATE_FAULTS, ...RATE_LIMIT_FAULTS, ...REQUEST_LENS_FAULTS];

export { INDEPENDENT_FAULTS, INDEPENDENT_FAULTS_6, INDEPENDENT_FAULTS_7, INDEPENDENT_FAULTS_8, INDEPENDENT_FAULTS_9 };

/** Every fault named in a list of expectations, hand-written or independent (the generated ones are generatedFaults()). */
export const LISTED_FAULTS: Array<{ fault: string; clauses: readonly string[]; env?: Record<string, string> }> = [
  ...ALL_FAULTS,
  ...INDEPENDENT_FAULTS,
  ...INDEPENDENT_FAULTS_6,
  ...INDEPENDENT_FAULTS_7,
  ...INDEPENDENT_FAULTS_8,
  ...INDEPENDENT_FAULTS_9,
];

const isGeneratedFault = (x: unknown): x is GeneratedFault =>
  !!x &&
  typeof x === 'object' &&
  typeof (x as GeneratedFault).fault === 'string' &&
  typeof (x as GeneratedFault).clause === 'string' &&
  Array.isArray((x as GeneratedFault).files);

/**
 * The generated lists, by family (the file's name): every `GeneratedFault[]` that a file of
 * `generated/` exports. Found rather than imported by name, so that a family's list joins the
 * self-test by being written there, whatever its export is called.
 */
export function generatedFaults(dir = join(__dirname, 'generated')): Record<string, GeneratedFault[]> {
  const out: Record<string, GeneratedFault[]> = {};
  for (const file of readdirSync(dir)
    .filter((f) => /\.ts$/.test(f))
    .sort()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the file is found at run time, not named in the code
    const exports: Record<string, unknown> = require(join(dir, file));
    const lists = Object.values(exports).filter((v): v is GeneratedFault[] => Array.isArray(v) && v.length > 0 && v.every(isGeneratedFault));
    if (lists.length) out[file.replace(/\.ts$/, '')] = lists.flat();
  }
  return out;
}
