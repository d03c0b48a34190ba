/** reports/junit.xml: a broken clause is a <failure>, from the `failures` data and never from error text; only the suite breaking is an <error>. */
import { stripVTControlCharacters } from 'node:util';
import { relative } from 'node:path';
import { formatFailure } from '../support/checks/failure';
import { redact } from '../support/http/redact';
import { esc } from './doc';
import type { TestRun } from './run-model';

/** Escaped as our pages are, without what XML 1.0 cannot hold (terminal colours, other control characters). */
const xml = (s: string) => esc(stripVTControlCharacters(redact(s)).replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD]/gu, ''));

/** A suite's counts, from its cases (`kind`: how each ended, `seconds`: its duration). */
function countsOf(cases: ReadonlyArray<{ kind: string; seconds: number }>): string {
  const n = (kind: string) => cases.filter((c) => c.kind === kind).length;
  const time = cases.reduce((t, c) => t + c.seconds, 0);
  return `tests="${cases.length}" failures="${n('failure')}" errors="${n('error')}" skipped="${n('skipped')}" time="${time.toFixed(3)}"`;
}

/** The run as JUnit XML, one <testsuite> per file (relative to `rootDir`, the config file's folder). */
export function renderJunit(runs: readonly TestRun[], rootDir: string): string {
  const fileOf = (run: TestRun) => relative(rootDir, run.test.location.file);
  const all = [...new Set(runs.map(fileOf))].map((file) => {
    const cases = runs
      .filter((run) => fileOf(run) === file)
      .map(({ test, result, failures, skipReason }) => {
        const seconds = (result?.duration ?? 0) / 1000;
        const open = `<testcase name="${xml(test.titlePath().slice(3).join(' › '))}" classname="${xml(file)}" time="${seconds.toFixed(3)}">`;
        if (!result || result.status === 'skipped') {
          return { kind: 'skipped', seconds, xml: `${open}<skipped message="${xml(skipReason ?? '')}"/></testcase>` };
        }
        if (test.outcome() === 'expected' || test.outcome() === 'flaky') return { kind: 'passed', seconds, xml: `${open}</testcase>` };
        // Failures a waiver covers do not fail the test: its page and the matrix show them.
        const standing = failures.filter((f) => !f.waiver && !f.error);
        if (standing.length) {
          const clauses = [...new Set(standing.map((f) => f.clause))].join(', ');
          const body = `<failure type="ClauseFailure" message="${xml(`${clauses}: ${standing[0].title}`)}">${xml(standing.map(formatFailure).join('\n\n'))}</failure>`;
          return { kind: 'failure', seconds, xml: `${open}${body}</testcase>` };
        }
        const text = result.errors.map((e) => e.message ?? e.value ?? '').join('\n\n');
        return { kind: 'error', seconds, xml: `${open}<error type="Error" message="${xml(text.split('\n')[0] ?? '')}">${xml(text)}</error></testcase>` };
      });
    return { cases, xml: `  <testsuite name="${xml(file)}" ${countsOf(cases)}>\n    ${cases.map((c) => c.xml).join('\n    ')}\n  </testsuite>` };
  });
  const totals = countsOf(all.flatMap((s) => s.cases));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="contract suite" ${totals}>\n${all.map((s) => s.xml).join('\n')}\n</testsuites>\n`;
}
