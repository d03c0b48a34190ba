/** The contract matrix as written to contract-matrix.json (read by the self-test and compare mode). */
import type { Failure, Tried } from '../support/checks/failure';
import type { WaiverStamp } from '../support/checks/waivers';
import type { ClauseId } from '../support/document/clauses';

/** `waived`: it failed, and an active waiver covers every one of its failures. */
export type ClauseStatus = 'verified' | 'waived' | 'failed' | 'skipped' | 'not covered';

export interface TestRef {
  title: string;
  file: string;
  status: 'passed' | 'waived' | 'failed' | 'skipped';
  /** It tried the clause without declaring it (a check made on the way, e.g. an error body). */
  inPassing?: true;
}

export interface ClauseRow {
  id: ClauseId;
  summary: string;
  status: ClauseStatus;
  tests: TestRef[];
  /** Why the clause was skipped, from the skip annotations. */
  reasons: string[];
  /** The failures of this clause, as the checks made them (the test's `failures` attachment); a waived clause's carry their waiver. */
  failures: MatrixFailure[];
  /** The waivers that covered its failures (reason and date), when waived. */
  waivers: WaiverStamp[];
  /** Where the clause was tried: the routes (by role) and the value classes, from the tests' `tried` attachments. */
  places: string[];
  valueClasses: string[];
  /** The near-miss operators (and `seeded`) among the value classes. */
  operators?: string[];
}

/** A failure as the matrix keeps it: the check's own data and the test it came from (of a keyed one, the first, and how many times it was seen). */
export type MatrixFailure = Failure & { test: string; sightings?: number };

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
  summary: { verified: number; waived: number; failed: number; skipped: number; notCovered: number };
  clauses: ClauseRow[];
  drift: string[];
  /** What the run made of the waiver file: each line printed about it (used, expired, stale). */
  waivers: WaiverNote[];
  requests: Record<string, number>;
  /** The seed of the generated values (CASE_SEED): the same seed replays the same values. */
  caseSeed?: number;
}

/** A line about one waiver of the file: it covered failures, it has expired, or it covered nothing (stale). */
export interface WaiverNote {
  kind: 'used' | 'expired' | 'stale';
  entry: number;
  clause: ClauseId;
  until: string;
  /** The failures it covered (used), or that it would have covered (expired). */
  failures: number;
  line: string;
}
