/** The shapes compare mode works with: each side's run, and what the comparison of the two found. */
import type { ExchangeSummary } from '../../support/checks/failure';
import type { Observation } from '../../support/http/observation';
import type { Matrix, MatrixFailure } from '../matrix-types';
import type { compare } from './model';

export type SideName = 'A' | 'B';

export interface Side {
  label: string;
  matrix?: Matrix;
  observations: Record<string, Observation[]>;
  exitCode: number | null;
  /** Why the side produced no matrix (configuration error, unreachable target), from its output. */
  problem?: string;
  /** Where the side's own reports are, relative to compare.html (for links). */
  reports?: string;
}

/** A failure of one side, as its record says, the request by its path ("/v1/runtimes/x?full=1"). */
export type Failure = Omit<MatrixFailure, 'exchange'> & {
  side: SideName;
  exchange?: Omit<ExchangeSummary, 'url'> & { path: string };
};

/** Rank of a difference: the lower, the more it matters to whoever decides if one side can stand in. */
export const RANK = { status: 0, missing: 1, contentType: 2, errorBody: 3, body: 4, header: 5 } as const;

export interface Difference {
  rank: number;
  /** Order within a rank: the documented fields of an error body first, types before values. */
  sub: number;
  /** The body field (last key) or header the difference is about, for matching it to a clause. */
  field?: string;
  what: string;
  a: string;
  b: string;
  /** A few words: "status 404 vs 200", "error body: error \"Not Found\" vs \"Not found\"". */
  phrase: string;
}

/** How much of a clause's difference both reports show: tests in full (the others are named), requests per test, differences per request, failures per list. */
export type Limits = Record<'tests' | 'requests' | 'differences' | 'failures', number>;

/** The comparison of two runs as model.ts makes it: verdict, clauses, family counts, the differing clauses grouped. */
export type Comparison = ReturnType<typeof compare>;
export type ClauseComparison = Comparison['clauses'][number];
