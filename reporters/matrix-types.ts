/** The contract matrix as written to contract-matrix.json (read by the self-test and compare mode). */
import type { Failure, Tried } from '../support/checks/failure';
import type { ClauseId } from '../support/document/clauses';

export type ClauseStatus = 'verified' | 'failed' | 'skipped' | 'not covered';

export interface TestRef {
  title: string;
  file: string;
  status: 'passed' | 'failed' | 'skipped';
}

export interface ClauseRow {
  id: ClauseId;
  summary: string;
  status: ClauseStatus;
  tests: TestRef[];
  /** Why the clause was skipped, from the skip annotations. */
  reasons: string[];
  /** The failures of this clause, as the checks made them (the test's `failures` attachment). */
  failures: MatrixFailure[];
  /** Where the clause was tried: the routes (by role) and the value classes, from the tests' `tried` attachments. */
  places: string[];
  valueClasses: string[];
  /** The near-miss operators (and `seeded`) among the value classes. */
  operators?: string[];
}

/** A failure as the matrix keeps it: the check's own data and the test it came from. */
export type MatrixFailure = Failure & { test: string };

/** One entry of tried.json: a test (its line in a `--test-list` file) and what it tried. */
export interface TestTried {
  id: string;
  file: string;
  tried: Tried[];
}

/** One line of failures.json: every failure of a run, with its test; `error` when the test failed before its checks. */
export type RunFailure = MatrixFailure & { file: string; project: string; error?: true };

export interface Matrix {
  generatedAt: string;
  runStatus: string;
  summary: { verified: number; failed: number; skipped: number; notCovered: number };
  clauses: ClauseRow[];
  drift: string[];
  requests: Record<string, number>;
  /** The seed of the generated values (CASE_SEED): the same seed replays the same values. */
  caseSeed?: number;
}
