/** docs/clauses.md is written from the catalogue in code: the two never drift apart. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CLAUSE_IDS } from '../../support/document/clauses';
import { CLAUSES_DOC_PATH, renderClausesDoc } from '../../support/document/clause-text';

test('docs/clauses.md is what the catalogue writes (run `npm run docs` after changing a clause)', () => {
  const onDisk = readFileSync(join(__dirname, '../..', CLAUSES_DOC_PATH), 'utf8');
  expect(onDisk).toBe(renderClausesDoc());
});

test('every clause of the catalogue is in the document, once', () => {
  const doc = renderClausesDoc();
  for (const id of CLAUSE_IDS) expect(doc.split(`**${id}**`).length - 1, id).toBe(1);
});
