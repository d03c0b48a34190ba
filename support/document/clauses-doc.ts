/** docs/clauses.md as text: the reading rules, then each family's clauses with their ids. */
import { CLAUSE_IDS, familyOf } from './clauses';
import { CLAUSE_TEXT, FAMILIES, READING } from './clause-text';

export const CLAUSES_DOC_PATH = 'docs/clauses.md';

export function renderClausesDoc(): string {
  const lines = [
    '# Clauses of the API document',
    '',
    '<!-- Written by `npm run docs` from support/document/clauses.ts and clause-text.ts; edit those, not this file. -->',
    '',
    "Every testable rule of the monitoring service's API document, with the id the tests, the contract",
    'matrix and the self-test use for it.',
    '',
    READING,
    '',
  ];
  for (const [family, title] of Object.entries(FAMILIES)) {
    lines.push(`## ${family}: ${title}`, '');
    for (const id of CLAUSE_IDS.filter((c) => familyOf(c) === family)) lines.push(`- **${id}** ${CLAUSE_TEXT[id]}`);
    lines.push('');
  }
  return lines.join('\n');
}
