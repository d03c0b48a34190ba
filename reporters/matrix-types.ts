/** The contract matrix as written to contract-matrix.json (read by the self-test and compare mode): the types of what the reporter builds. */
import type { Failure } from '../support/checks/failure';
import type { buildMatrix, triedOf } from './clause-matrix';
import type { waiverNotes } from './waiver-notes';

/** `waivers`: what the run made of the waiver file, each line printed about it (used, expired, stale). */
export type Matrix = ReturnType<typeof buildMatrix> & { waivers: WaiverNote[] };
export type ClauseRow = ReturnType<typeof buildMatrix>['clauses'][number];
export type TestRef = ClauseRow['tests'][number];

/** A failure as the matrix keeps it: the check's own data and the test it came from (of a keyed one, the first, and how many times it was seen). */
export type MatrixFailure = Failure & { test: string; sightings?: number };

/** One entry of tried.json: a test (its line in a `--test-list` file) and what it tried. */
export type TestTried = ReturnType<typeof triedOf>;

/** One line of failures.json: every failure of a run, with its test; `error` when the test failed before its checks. */
export type RunFailure = MatrixFailure & { file: string; project: string; error?: true };

/** A line about one waiver of the file: it covered failures, it has expired, or it covered nothing (stale); `failures`: those it covered (or would have). */
export type WaiverNote = ReturnType<typeof waiverNotes>[number];
