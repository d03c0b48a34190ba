/**
 * Writes docs/clauses.md from the catalogue in code (support/document/clause-text.ts, written from facts.ts), so the
 * project's own document of the rules and the ids the tests use are one source. `npm run docs` writes it; a unit test fails
 * when the file and the code drift apart.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLAUSES_DOC_PATH, renderClausesDoc } from '../support/document/clause-text';

const file = join(__dirname, '..', CLAUSES_DOC_PATH);
writeFileSync(file, renderClausesDoc());
process.stdout.write(`wrote ${file}\n`);
