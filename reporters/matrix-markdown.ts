/** contract-matrix.md: the matrix as a table a person reads without knowing the code. */
import { failureLine } from '../support/checks/failure';
import type { ClauseRow, Matrix, MatrixFailure } from './matrix-types';

const MARK = { verified: '✅ verified', waived: '🟪 waived', failed: '❌ failed', skipped: '⏭️ skipped', 'not covered': '⬜ not covered' } as const;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A list for a table cell: its first items and how many more (contract-matrix.json keeps them all). */
const some = (items: readonly string[], most = 12) =>
  items.length > most ? `${items.slice(0, most).join(', ')}, … ${items.length - most} more` : items.join(', ');

/** The run's clause counts as every report words them, waived only when some clause is. */
export const summaryCounts = ({ verified, waived, failed, skipped, notCovered }: Matrix['summary']) =>
  Object.entries({ verified, waived, failed, skipped, 'not covered': notCovered }).filter(([status, n]) => status !== 'waived' || n);

/** The places (routes by role) and value classes a clause was tried with. */
export const triedText = (c: Pick<ClauseRow, 'places' | 'valueClasses' | 'operators'>) =>
  [
    c.places.length ? `places: ${some(c.places)}` : '',
    c.operators?.length ? `operators: ${c.operators.join(', ')}` : '',
    c.valueClasses.length ? `values: ${some(c.valueClasses)}` : '',
  ]
    .filter(Boolean)
    .join('; ');

/** A failure's line, with how many times it was seen when more than once (one finding, many tests). */
export const matrixFailureLine = (f: MatrixFailure) => `${failureLine(f)}${(f.sightings ?? 1) > 1 ? ` (seen ${f.sightings} times)` : ''}`;

/** Why a waived clause does not fail the run: each waiver's date and reason. */
export const waiversText = (c: Pick<ClauseRow, 'waivers'>) => c.waivers.map((w) => `waived until ${w.until} (entry ${w.entry}): ${w.reason}`).join('; ');

/** What a row's detail column says: the failures of a failed clause, the waivers and failures of a waived one, the reasons of a skip. */
const detailText = (c: ClauseRow) =>
  [c.status === 'waived' ? waiversText(c) : '', ...c.failures.slice(0, 2).map(matrixFailureLine), ...(c.status === 'skipped' ? c.reasons : [])]
    .filter(Boolean)
    .join('; ');

export function renderMatrixMarkdown(m: Matrix): string {
  const counts = summaryCounts(m.summary).map(([status, n]) => `${n} ${status}`);
  const lines = [
    '# Contract matrix',
    '',
    `Run of ${m.generatedAt}: **${counts.join(', ')}**.` +
      (m.caseSeed === undefined ? '' : ` Generated values from seed ${m.caseSeed} (\`CASE_SEED=${m.caseSeed}\` replays them).`),
    '',
    '| clause | rule | result | detail | tried at | tests |',
    '|---|---|---|---|---|---|',
    ...m.clauses.map((c) => {
      const detail = detailText(c);
      const tests = c.tests.map((t) => `${t.status === 'failed' ? '✗' : t.status === 'skipped' ? '–' : t.status === 'waived' ? '~' : '✓'} ${t.title}`);
      const shown = tests.length > 4 ? [...tests.slice(0, 4), `… ${tests.length - 4} more`] : tests;
      return `| ${c.id} | ${cell(c.summary)} | ${MARK[c.status]} | ${cell(detail)} | ${cell(triedText(c))} | ${cell(shown.join('<br>'))} |`;
    }),
    '',
  ];
  if (m.waivers?.length) lines.push('## Waivers', '', ...m.waivers.map((n) => `- ${n.line}`), '');
  if (m.drift.length)
    lines.push(
      '## Spec drift (warnings)',
      '',
      'Statuses the target answered that its own spec does not declare (a failure under `STRICT_SPEC=on`):',
      '',
      ...m.drift.map((d) => `- ${d}`),
      '',
    );
  lines.push('## Requests sent', '', ...Object.entries(m.requests).map(([k, v]) => `- ${k}: ${v}`), '');
  return lines.join('\n');
}
