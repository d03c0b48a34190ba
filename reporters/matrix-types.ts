/** The contract matrix as written to contract-matrix.json (read by the self-test and compare mode). */
import type { ClauseId } from '../support/clauses';

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
  /** First lines of the failures attributed to this clause. */
  failures: string[];
}

export interface Matrix {
  generatedAt: string;
  runStatus: string;
  summary: { verified: number; failed: number; skipped: number; notCovered: number };
  clauses: ClauseRow[];
  drift: string[];
  requests: Record<string, number>;
}
