/** The run as every report reads it: each test once, its attachments parsed once, so that all reports see the same data. */
import { stripVTControlCharacters } from 'node:util';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { z } from 'zod/v3';
import { isClauseId, type ClauseId } from '../support/document/clauses';
import { FAILURES_ATTACHMENT, failureSchema, TRIED_ATTACHMENT, triedSchema, type Failure } from '../support/checks/failure';
import { uniqueBy } from './unique';

/** An attachment of the test's (support/checks/verdict.ts), read through its schema. */
function attached<T extends z.ZodTypeAny>(result: TestResult | undefined, name: string, schema: T): z.infer<T> | undefined {
  const a = result?.attachments.find((x) => x.name === name && x.body);
  return a ? schema.parse(JSON.parse(a.body!.toString('utf8'))) : undefined;
}

export function readRun(tests: readonly TestCase[], results: ReadonlyMap<TestCase, TestResult>) {
  return tests.map((test) => {
    // Undefined for a test that did not run.
    const result = results.get(test);
    // As every report names it: its file and describe blocks and its own title.
    const title = test.titlePath().slice(2).join(' › ');
    // The clauses it declares (`clauses(...)` in support/test.ts), each a tag too: what a test that did not run would have tried.
    // A clause annotation added at run time (a clause it failed in passing) has no tag.
    const declared = test.annotations
      .filter((a) => a.type === 'clause' && a.description && isClauseId(a.description) && test.tags.includes(`@${a.description}`))
      .map((a) => a.description as ClauseId);
    const failures: Failure[] = (attached(result, FAILURES_ATTACHMENT, z.array(failureSchema)) ?? []).map((f) => ({ ...f, test: title }));
    // It ran and failed with no failure a waiver leaves standing: an error before or between its checks fails each declared clause no check failed, with its first line.
    if (result && result.status !== 'skipped' && test.outcome() === 'unexpected' && failures.every((f) => f.waiver)) {
      const firstLine = (e: { message?: string }) =>
        stripVTControlCharacters(e.message ?? '')
          .trim()
          .split('\n')[0];
      const first = result.errors.map(firstLine).find(Boolean) ?? result.status;
      for (const clause of declared.filter((id) => !failures.some((f) => f.clause === id)))
        failures.push({ clause, title: first, received: 'an error before any check', allowed: 'the test to run its checks', test: title, error: true });
    }
    // A test skips by its declaration or at run time: the second lands on the result.
    const annotations = uniqueBy([...test.annotations, ...(result?.annotations ?? [])], (a) => `${a.type}|${a.description}`);
    return {
      test,
      result,
      title,
      file: test.location.file.replace(/^.*\/tests\//, 'tests/'),
      declared,
      annotations,
      /** Why it was skipped, as every report gives it. */
      skipReason: annotations.find((a) => a.type === 'skip' || a.type === 'fixme')?.description,
      failures,
      tried: attached(result, TRIED_ATTACHMENT, z.array(triedSchema)) ?? [],
      observations: attached(result, 'observations', z.array(z.unknown())),
    };
  });
}

export type TestRun = ReturnType<typeof readRun>[number];
