import type { ClauseId } from '../../support/document/clauses';

/** The kill ratio's lists of named faults: the hand-written one, and each batch of independent ones (written without reading the suite). */
export type FaultList = 'hand-written' | 'independent' | 'independent-6' | 'independent-7' | 'independent-8' | 'independent-9';

/**
 * What the record of a named fault says besides its change (selftest/faults/outside/): the catalogue
 * line (catalogue/faults.ts) and the self-test's expectation (index.ts) are read from it.
 */
export interface NamedFaultRecord {
  /** Its MOCK_FAULT value. */
  name: string;
  /** One line: what the fault does (`npx tsx selftest/faults/list.ts`). */
  what: string;
  /**
   * Those a correct suite must fail on with it injected, every one; where two are listed, the one
   * observation breaks both. None: a correct variant, run as a setting, with no expectation.
   */
  clauses: ClauseId[];
  /** The list that reports it (hand-written when unset); generated: only a generated row expects it, at its place and value class. */
  list?: FaultList | 'generated';
  /** Suite files to run, where not those of its clauses' families (filesOf). */
  files?: string[];
  /** Extra environment for the run (suite and service). */
  env?: Record<string, string>;
  /**
   * The answers it changes, which decide the faults it may share a run with (FaultCase.reach in
   * selftest/self/fault-cases.ts); unset, it runs alone. A spec fault changes the document every test
   * reads: it shares a run only with spec faults on other parts of the document.
   */
  reach?: string[];
}

/** One injected fault of the reference service and the clause the suite must fail on because of it. */
export interface FaultExpectation {
  /** MOCK_FAULT value (see `npx tsx selftest/faults/list.ts`). */
  fault: string;
  /** The clause(s) the suite must report failed; every one listed must fail. */
  clauses: ClauseId[];
  /** Test files to run (the family's), to keep the self-test fast. */
  files: string[];
  /** Extra environment for the run (e.g. a short rate-limit window). */
  env?: Record<string, string>;
}

/**
 * A fault generated from a family's tables (`selftest/faults/generated/<family>.ts`): one MOCK_FAULT
 * string and the one catch it must produce. Caught means: the run's failures include one with this
 * clause and, when given, this place and value class (the failure data, not the text).
 */
export interface GeneratedFault {
  /** MOCK_FAULT value, e.g. `accept:api:%7B%22locations%22%3A%5B%5D%7D` (args encodeURIComponent-encoded). */
  fault: string;
  clause: ClauseId;
  /** Other clauses the same observation breaks, each a catch of its own at the same place and value class. */
  also?: ClauseId[];
  /** Route role the failure must be stamped with (`runtime`, `check-update`, …), when the fault names one. */
  place?: string;
  /** Value class the failure must be stamped with, when the fault names one. */
  valueClass?: string;
  /** loose: the fault accepts what the document refuses; strict: it refuses what the document allows. */
  direction: 'loose' | 'strict';
  /** Test files to run (the family's). */
  files: string[];
  /** Extra environment for the run (suite and service). */
  env?: Record<string, string>;
}
