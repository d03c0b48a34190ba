/** Every injected fault the self-test runs: the named ones' expectations, read from their records, and the generated lists. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { familyOf, type ClauseId } from '../../support/document/clauses';
import { TEST_FILES } from '../../support/run/test-files';
import { NAMED_FAULTS } from './catalogue/faults';
import type { FaultExpectation, FaultList, GeneratedFault } from './types';

/** The suite files that judge each clause family's rules (FO's are the check update's). */
const FAMILY_FILES: Record<ReturnType<typeof familyOf>, string[]> = {
  SPEC: [TEST_FILES.spec],
  AUTH: [TEST_FILES.auth],
  RT: [TEST_FILES.runtime],
  ERR: [TEST_FILES.errors],
  RL: [TEST_FILES.rateLimit, TEST_FILES.burst],
  CU: [TEST_FILES.checkUpdate],
  FO: [TEST_FILES.checkUpdate],
  AG: [TEST_FILES.agent],
};

/** The files of these clauses' families: where a fault that breaks them is caught, unless its record says otherwise. */
export const filesOf = (clauses: readonly ClauseId[]): string[] => [...new Set(clauses.flatMap((c) => FAMILY_FILES[familyOf(c)]))];

export interface ListedFault extends FaultExpectation {
  list: FaultList;
}

/**
 * What the self-test expects of each named fault a list reports: not of a variant (no clause), nor of
 * one only a generated row expects.
 */
export const LISTED_FAULTS: ListedFault[] = NAMED_FAULTS.flatMap((f) =>
  f.clauses.length === 0 || f.list === 'generated'
    ? []
    : [{ fault: f.name, clauses: f.clauses, files: f.files ?? filesOf(f.clauses), ...(f.env && { env: f.env }), list: f.list ?? 'hand-written' }],
);

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
