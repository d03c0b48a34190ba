import type { ClauseId } from '../../support/document/clauses';

/** One injected fault of the reference service and the clause the suite must fail on because of it. */
export interface FaultExpectation {
  /** MOCK_FAULT value (see `node --import tsx reference/service/main.ts --list-faults`). */
  fault: string;
  /** The clause(s) the suite must report failed; every one listed must fail. */
  clauses: ClauseId[];
  /** Test files to run (the family's), to keep the self-test fast. */
  files: string[];
  /** Extra environment for the run (e.g. a short rate-limit window). */
  env?: Record<string, string>;
  /** Instead of a failed clause: the run must stop with this exit code and this text. */
  stops?: { exitCode: number; text: RegExp };
}

/**
 * A fault written from a table of the suite (one row, one class of value): the MOCK_FAULT value and
 * where the suite must catch it, i.e. a failure whose clause, place and value class match.
 */
export interface GeneratedFault {
  /** MOCK_FAULT value (a parameterized kind, e.g. accept:API:<encoded JSON pattern>). */
  fault: string;
  clause: ClauseId;
  place?: string;
  valueClass?: string;
  /** loose: something invalid accepted; strict: something valid refused. */
  direction: 'loose' | 'strict';
  /** Test files to run (the family's). */
  files: string[];
  env?: Record<string, string>;
}
