/** contract-matrix.md: the matrix as a table a person reads without knowing the code. */
import { failureLine } from '../support/checks/failure';
import type { ClauseRow, Matrix, MatrixFailure } from './matrix-types';

const MARK = { verified: '✅ verified', failed: '❌ failed', skipped: '⏭️ skipped', 'not covered': '⬜ not covered' } as const;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The places (routes by role) and value classes a clause was tried with. */
export const triedText = (c: Pick<ClauseRow, 'places' | 'valueClasses'>) =>
  [c.places.length ? `places: ${c.places.join(', ')}` : '', c.valueClasses.length ? `values: ${c.valueClasses.join(', ')}` : ''].filter(Boolean).join('; ');

/** A failure's line, with how many times it was seen when more than once (one finding, many tests). */
export const matrixFailureLine = (f: MatrixFailure) => `${failureLine(f)}${(f.sightings ?? 1) > 1 ? ` (seen ${f.sightings} times)` : ''}`;

export function renderMatrixMarkdown(m: Matrix): string {
  const s = m.summary;
  const lines = [
    '# Contract matrix',
    '',
    `Run of ${m.generatedAt}: **${s.verified} verified, ${s.failed} failed, ${s.skipped} skipped, ${s.notCovered} not covered**.`,
    '',
    '| clause | rule | result | detail | tried at | tests |',
    '|---|---|---|---|---|---|',
    ...m.clauses.map((c) => {
      const detail = c.status === 'failed' ? c.failures.slice(0, 2).map(matrixFailureLine).join('; ') : c.status === 'skipped' ? c.reasons.join('; ') : '';
      const tests = c.tests.map((t) => `${t.status === 'failed' ? '✗' : t.status === 'skipped' ? '–' : '✓'} ${t.title}`);
      const shown = tests.length > 4 ? [...tests.slice(0, 4), `… ${tests.length - 4} more`] : tests;
      return `| ${c.id} | ${cell(c.summary)} | ${MARK[c.status]} | ${cell(detail)} | ${cell(triedText(c))} | ${cell(shown.join('<br>'))} |`;
    }),
    '',
  ];
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
