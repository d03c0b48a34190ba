/**
 * The run as text, each failure's from its record by support/checks/failure.ts: contract-matrix.md and .html (the matrix as a table a
 * person reads without knowing the code, then the waivers, the spec drift and the requests), the console's lines at the end of a
 * run, and junit.xml.
 */
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { TestError } from '@playwright/test/reporter';
import { clausesOf, consoleText, failureLine, failureText, failureTitle } from '../support/checks/failure';
import { redact } from '../support/http/redact';
import type { ClauseRow, Matrix } from '../support/run/report-files';
import { count, esc, statusClass, type Block } from './doc';
import type { TestRun } from './run-model';

const MARK = {
  verified: '✅ verified',
  waived: '🟪 waived',
  failed: '❌ failed',
  skipped: '⏭️ skipped',
  'not covered': '⬜ not covered',
  'not tried in this run': '◽ not tried in this run',
} as const;
const TEST_MARK = { passed: '✓', failed: '✗', skipped: '–', waived: '~' } as const;

/** A list for a table cell: its first items and how many more (contract-matrix.json keeps them all). */
const some = (items: string[], most = 4) => (items.length > most ? [...items.slice(0, most), `… ${items.length - most} more`] : items);

/** The run's clause counts as every report words them, waived only when some clause is. */
export const summaryCounts = ({ verified, waived, failed, skipped, notCovered, notTried }: Matrix['summary']) =>
  Object.entries({ verified, waived, failed, skipped, 'not covered': notCovered, 'not tried in this run': notTried ?? 0 }).filter(
    // Waived and not tried only when some clause is; not covered only in a whole run (a partial one cannot tell).
    ([status, n]) => (status === 'not covered' ? notTried === undefined : (status !== 'waived' && status !== 'not tried in this run') || n),
  );

/** The places (routes by role) and value classes a clause was tried with. */
const triedText = (c: ClauseRow) =>
  [
    c.places.length ? `places: ${some(c.places, 12).join(', ')}` : '',
    c.operators?.length ? `operators: ${c.operators.join(', ')}` : '',
    c.valueClasses.length ? `values: ${some(c.valueClasses, 12).join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');

/** What a row's detail column says: the waivers and failures of a failed or waived clause, the reasons of a skip. */
const detailText = (c: ClauseRow) =>
  [
    ...(c.status === 'waived' ? c.waivers.map((w) => `waived until ${w.until} (entry ${w.entry}): ${w.reason}`) : []),
    ...c.failures.slice(0, 2).map(failureLine),
    ...(c.status === 'skipped' ? c.reasons : []),
  ].join('; ');

export function matrixDoc(m: Matrix): Block[] {
  const counts = summaryCounts(m.summary).map(([status, n]) => ({ cls: `pill ${statusClass(status)}`, text: `${n} ${status}` }));
  const seed = m.caseSeed === undefined ? [] : [` Generated values from seed ${m.caseSeed} (`, { code: `CASE_SEED=${m.caseSeed}` }, ' replays them).'];
  const rows = m.clauses.map((c) => ({
    cells: [
      { cls: 'id', text: c.id },
      c.summary,
      { cls: statusClass(c.status), text: MARK[c.status] },
      { cls: 'detail', text: detailText(c) },
      { cls: 'detail', text: triedText(c) },
      { lines: some(c.tests.map((t) => `${TEST_MARK[t.status]} ${t.title}`)) },
    ],
  }));
  const partial = m.partial
    ? [
        {
          p: [
            { b: `Partial run (${m.partial}).` },
            ' The clauses it selected no test of are marked not tried in this run: a whole run tells them apart from those no test covers.',
            " The last whole run's reports, where this folder held them, are kept in last-whole-run/.",
          ],
        },
      ]
    : [];
  return [
    { p: [`Run of ${m.generatedAt}: `, { b: counts.flatMap((pill, i) => (i ? [', ', pill] : [pill])) }, '.', seed] },
    ...partial,
    { table: ['clause', 'rule', 'result', 'detail', 'tried at', 'tests'], rows },
    ...(m.waivers.length ? [{ h: 'Waivers' }, { list: m.waivers.map((n) => n.line) }] : []),
    ...(m.drift.length
      ? [
          { h: 'Spec drift (warnings)' },
          { p: ['Statuses the target answered that its own spec does not declare (a failure under ', { code: 'STRICT_SPEC=on' }, '):'] },
          { list: m.drift },
        ]
      : []),
    { h: 'Requests sent' },
    { list: Object.entries(m.requests).map(([k, v]) => `${k}: ${v}`) },
  ];
}

// The console's lines at the end of a run: a line per skip reason and per failed clause, the details left to the reports.

const ids = (rows: readonly ClauseRow[]) => rows.map((r) => r.id).join(', ');

/** The skipped clauses, one line per reason (a test skipped for a reason names its clauses). */
export function skipLines(rows: readonly ClauseRow[]): string[] {
  const skipped = rows.filter((r) => r.status === 'skipped');
  const reasons = [...new Set(skipped.flatMap((r) => (r.reasons.length ? r.reasons : ['no reason given'])))];
  return reasons.map(
    (reason) => `skipped ${ids(skipped.filter((r) => r.reasons.includes(reason) || (!r.reasons.length && reason === 'no reason given')))}: ${reason}`,
  );
}

/** A failed clause in one line: how many failures at how many places, the first value received, where the details are. */
export function clauseLines(rows: readonly ClauseRow[], details: string): string[] {
  return rows
    .filter((r) => r.status === 'failed')
    .map((r) => {
      const standing = r.failures.filter((f) => !f.waiver);
      const first = standing[0];
      // A clause failed by a test's error alone, or whose failures the matrix capped away: no value to show.
      if (!first) return `✗ ${r.id} failed; details: ${details}`;
      const places = new Set(standing.map((f) => f.place ?? '')).size;
      return `✗ ${r.id} failed: ${count(standing.length, 'failure')} at ${count(places, 'place')}; first: ${consoleText(first)}; details: ${details}`;
    });
}

/**
 * Playwright's error for a selection that matched no test (--grep, a file filter): its only signal, so it is known by its text.
 * The selection's mistake exits 3, not 1 (see clause-matrix.ts).
 */
export const isNoTestsError = (e: TestError) => /^(Error: )?No tests found\b/.test(e.message ?? '');

// junit.xml: a broken clause is a <failure>, from the `failures` data and never from error text; only the suite breaking is an <error>.

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
          const message = `${clausesOf(standing)}: ${failureTitle(standing[0])}`;
          const body = `<failure type="ClauseFailure" message="${xml(message)}">${xml(standing.map(failureText).join('\n\n'))}</failure>`;
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
