/** reports/junit.xml: a broken clause is a <failure>, from the `failures` data and never from error text; only the suite breaking is an <error>. */
import { stripVTControlCharacters } from 'node:util';
import { relative } from 'node:path';
import { formatFailure } from '../support/checks/failure';
import { redact } from '../support/http/redact';
import { esc } from './doc';
import type { TestRun } from './run-model';

/** Escaped as our pages are, without what XML 1.0 cannot hold (terminal colours, other control characters). */
const xml = (s: string) => esc(stripVTControlCharacters(redact(s)).replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD]/gu, ''));

type Counts = { tests: number; failures: number; errors: number; skipped: number; time: number };
const countsOf = (c: Counts) => `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}" time="${c.time.toFixed(3)}"`;

/** The run as JUnit XML, one <testsuite> per file (relative to `rootDir`, the config file's folder). */
export function renderJunit(runs: readonly TestRun[], rootDir: string): string {
  const byFile = new Map<string, TestRun[]>();
  for (const run of runs) {
    const file = relative(rootDir, run.test.location.file);
    byFile.set(file, [...(byFile.get(file) ?? []), run]);
  }
  const totals: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0, time: 0 };
  const suites = [...byFile].map(([file, tests]) => {
    const counts: Counts = { tests: tests.length, failures: 0, errors: 0, skipped: 0, time: 0 };
    const cases = tests.map(({ test, result, failures }) => {
      const seconds = (result?.duration ?? 0) / 1000;
      counts.time += seconds;
      const open = `<testcase name="${xml(test.titlePath().slice(3).join(' › '))}" classname="${xml(file)}" time="${seconds.toFixed(3)}">`;
      if (!result || result.status === 'skipped') {
        counts.skipped++;
        const reason = test.annotations.find((a) => a.type === 'skip')?.description ?? '';
        return `${open}<skipped message="${xml(reason)}"/></testcase>`;
      }
      if (test.outcome() === 'expected' || test.outcome() === 'flaky') return `${open}</testcase>`;
      // Failures a waiver covers do not fail the test: its page and the matrix show them.
      const standing = failures.filter((f) => !f.waiver);
      if (standing.length) {
        counts.failures++;
        const clauses = [...new Set(standing.map((f) => f.clause))].join(', ');
        return `${open}<failure type="ClauseFailure" message="${xml(`${clauses}: ${standing[0].title}`)}">${xml(standing.map(formatFailure).join('\n\n'))}</failure></testcase>`;
      }
      counts.errors++;
      const text = result.errors.map((e) => e.message ?? e.value ?? '').join('\n\n');
      return `${open}<error type="Error" message="${xml(text.split('\n')[0] ?? '')}">${xml(text)}</error></testcase>`;
    });
    for (const k of Object.keys(totals) as Array<keyof Counts>) totals[k] += counts[k];
    return `  <testsuite name="${xml(file)}" ${countsOf(counts)}>\n    ${cases.join('\n    ')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="contract suite" ${countsOf(totals)}>\n${suites.join('\n')}\n</testsuites>\n`;
}
