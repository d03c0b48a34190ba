/** The run as every report reads it: each test once, its attachments parsed once, so that all reports see the same data. */
import { stripVTControlCharacters } from 'node:util';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { isClauseId, type ClauseId } from '../support/document/clauses';
import { FAILURES_ATTACHMENT, TRIED_ATTACHMENT, type Failure, type Tried } from '../support/checks/failure';
import { uniqueBy } from './unique';

function attached<T>(result: TestResult | undefined, name: string): T | undefined {
  const a = result?.attachments.find((x) => x.name === name && x.body);
  return a ? (JSON.parse(a.body!.toString('utf8')) as T) : undefined;
}

export function readRun(tests: readonly TestCase[], results: ReadonlyMap<TestCase, TestResult>) {
  return tests.map((test) => {
    // Undefined for a test that did not run.
    const result = results.get(test);
    const failures = attached<Failure[]>(result, FAILURES_ATTACHMENT) ?? [];
    return {
      test,
      result,
      // As every report names it: its file and describe blocks and its own title.
      title: test.titlePath().slice(2).join(' › '),
      file: test.location.file.replace(/^.*\/tests\//, 'tests/'),
      // The clauses it declares (`clauses(...)` in support/test.ts): what a test that did not run would have tried.
      declared: test.annotations.filter((a) => a.type === 'clause' && a.description && isClauseId(a.description)).map((a) => a.description as ClauseId),
      annotations: uniqueBy([...test.annotations, ...(result?.annotations ?? [])], (a) => `${a.type}|${a.description}`),
      failures,
      tried: attached<Tried[]>(result, TRIED_ATTACHMENT) ?? [],
      observations: attached<unknown[]>(result, 'observations'),
      // It ran and failed with no failure a waiver leaves standing: an error before or between its checks.
      errored: !!result && result.status !== 'skipped' && test.outcome() === 'unexpected' && failures.every((f) => f.waiver),
    };
  });
}

export type TestRun = ReturnType<typeof readRun>[number];

/** A failure as the matrix keeps it: the check's own data and the test it came from (of a keyed one, the first, and how many times it was seen). */
export type MatrixFailure = Failure & { test: string; sightings?: number };

/** What an errored test failed its clauses with: its error's first line, since no check said more. */
export function errorFailures(run: TestRun, clauses: readonly ClauseId[]): MatrixFailure[] {
  const firstLine = (e: { message?: string }) =>
    stripVTControlCharacters(e.message ?? '')
      .trim()
      .split('\n')[0];
  const first = run.result?.errors.map(firstLine).find(Boolean) ?? run.result?.status ?? 'did not run';
  return clauses.map((clause) => ({ clause, title: first, received: 'an error before any check', allowed: 'the test to run its checks', test: run.title }));
}
