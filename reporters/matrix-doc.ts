/** contract-matrix.md and .html: the matrix as a table a person reads without knowing the code, then the waivers, the spec drift and the requests. */
import { failureLine } from '../support/checks/failure';
import { statusClass, type Block } from './doc';
import type { ClauseRow, Matrix } from './clause-matrix';
import type { MatrixFailure } from './run-model';

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

/** A failure's line, with how many times it was seen when more than once (one finding, many tests). */
const matrixFailureLine = (f: MatrixFailure) => `${failureLine(f)}${(f.sightings ?? 1) > 1 ? ` (seen ${f.sightings} times)` : ''}`;

/** What a row's detail column says: the waivers and failures of a failed or waived clause, the reasons of a skip. */
const detailText = (c: ClauseRow) =>
  [
    ...(c.status === 'waived' ? c.waivers.map((w) => `waived until ${w.until} (entry ${w.entry}): ${w.reason}`) : []),
    ...c.failures.slice(0, 2).map(matrixFailureLine),
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
