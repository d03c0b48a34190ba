/** docs/clauses.md is written from the catalogue in code, and the catalogue from the document's facts: the three never drift apart. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CLAUSE_IDS, CLAUSES } from '../../support/document/clauses';
import { CLAUSES_DOC_PATH, clauseCatalogue, renderClausesDoc, type Facts } from '../../support/document/clause-text';
import * as facts from '../../support/document/facts';

test('docs/clauses.md is what the catalogue writes (run `npm run docs` after changing a clause or a fact)', () => {
  const onDisk = readFileSync(join(__dirname, '../..', CLAUSES_DOC_PATH), 'utf8');
  expect(onDisk).toBe(renderClausesDoc());
});

test('every clause of the catalogue is in the document, once', () => {
  const doc = renderClausesDoc();
  for (const id of CLAUSE_IDS) expect(doc.split(`**${id}**`).length - 1, id).toBe(1);
});

test('another description bound changes every summary, text and line of the document that states it', () => {
  const other = clauseCatalogue({ ...facts, DESCRIPTION_MAX: 400 });
  expect(Object.keys(other)).toEqual(CLAUSE_IDS);
  expect(other['CU-2'].summary).toBe('description: 400 characters accepted, 401 rejected, null accepted');
  expect(other['CU-2'].text).toContain('`description`: 400 characters accepted, 401 rejected');
  const doc = renderClausesDoc({ ...facts, DESCRIPTION_MAX: 400 });
  expect(doc).toContain('400 characters accepted, 401 rejected');
  expect(doc).not.toMatch(/\b50[01]\b/);
  // Only CU-2 states the bound: every other entry reads as before.
  for (const id of CLAUSE_IDS.filter((c) => c !== 'CU-2')) expect(other[id], id).toEqual(CLAUSES[id]);
});

/** Every fact a clause states, another value: the document's own values must be gone from every summary and text. */
const OTHERS: Facts = {
  ...facts,
  RUNTIME_VERSIONS: ['2030.01', '2029.06'],
  RUNTIME_STAGES: ['GA', 'SUNSET'],
  LOCATIONS: ['moon-1', 'moon-2', 'moon-3'],
  DESCRIPTION_MAX: 400,
  SUB_MINUTE_CHECK_TYPE: 'TCP',
  SUB_MINUTE_OFFSETS: [15, 45],
  DOCUMENTED_RATE_LIMIT: { max: 100, windowSeconds: 10 },
  AGENT_DEFAULT_PORT: 9191,
  RUNTIME_PATH: '/v2/runtimes/{id}',
  RUNTIME_NAME_FORM: 'YYYY-MM',
  NODE_VERSION_FORM: 'node<major>',
  END_OF_LIFE_FORM: 'YYYY-MM-DD',
  ERROR_WORDING: { 404: 'Missing', 429: 'Slow Down' },
};
const STALE = ['500', '501', '600', '8081', '2026.04', '2022.10', 'ALPHA', 'STABLE', ' 22 ', 'six', 'YYYY.MM', 'MM/DD/YYYY', 'v<major>'];
const STALE_WORDS = ['Not Found', 'Too Many Requests', '/v1/runtimes', '10, 20, 30', '(API checks only)'];
const FRESH = [
  '2030.01, 2029.06',
  'GA, SUNSET',
  'of the 3 allowed',
  '100 requests per 10 seconds',
  '9191',
  '(TCP checks only): offsets 15, 45',
  '"Slow Down"',
  'YYYY-MM-DD',
];

test('no clause states a fact of the document in its own words: written from other facts, none of the document’s values is left', () => {
  const written = [renderClausesDoc(OTHERS), ...Object.values(clauseCatalogue(OTHERS)).map((e) => e.summary)].join('\n');
  for (const stale of [...STALE, ...STALE_WORDS]) expect(written, `still states ${stale}`).not.toContain(stale);
  for (const fresh of FRESH) expect(written).toContain(fresh);
});
