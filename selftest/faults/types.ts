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
