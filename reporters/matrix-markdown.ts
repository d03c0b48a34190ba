/** contract-matrix.md: the matrix as a table a person reads without knowing the code. */
import { failureLine } from '../support/checks/failure';
import type { ClauseRow, Matrix } from './matrix-types';

const MARK = { verified: '✅ verified', failed: '❌ failed', skipped: '⏭️ skipped', 'not covered': '⬜ not covered' } as const;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The places (routes by role) and value classes a clause was tried with. */
export const triedText = (c: Pick<ClauseRow, 'places' | 'valueClasses' | 'operators'>) =>
  [
    c.places.length ? `places: ${c.places.join(', ')}` : '',
    c.operators?.length ? `operators: ${c.operators.join(', ')}` : '',
    c.valueClasses.length ? `values: ${c.valueClasses.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');

export function renderMatrixMarkdown(m: Matrix): string {
  const s = m.summary;
  const lines = [
    '# Contract matrix',
    '',
    `Run of ${m.generatedAt}: **${s.verified} verified, ${s.failed} failed, ${s.skipped} skipped, ${s.notCovered} not covered**.` +
      (m.caseSeed === undefined ? '' : ` Generated values from seed ${m.caseSeed} (\`CASE_SEED=${m.caseSeed}\` replays them).`),
    '',
    '| clause | rule | result | detail | tried at | tests |',
    '|---|---|---|---|---|---|',
    ...m.clauses.map((c) => {
      const detail = c.status === 'failed' ? c.failures.slice(0, 2).map(failureLine).join('; ') : c.status === 'skipped' ? c.reasons.join('; ') : '';
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
