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
 * One fault generated from a family's table (a parameterized MOCK_FAULT kind): the clause it must
 * fail, where (the place, the value class), and whether the fault makes the target too loose (takes
 * what it must refuse) or too strict (refuses what it must take).
 */
export interface GeneratedFault {
  fault: string;
  clause: ClauseId;
  place?: string;
  valueClass?: string;
  direction: 'loose' | 'strict';
  files: string[];
  env?: Record<string, string>;
}
