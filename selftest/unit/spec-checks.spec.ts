/** The SPEC table: one row per clause, and its document checks run as plain functions against the reference spec and a broken copy. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type TestInfo } from '@playwright/test';
import { Verdict } from '../../support/checks/verdict';
import type { Config } from '../../support/run/config';
import { SPEC_CHECKS, type SpecContext } from '../../support/spec/checks';
import { SchemaValidator } from '../../support/spec/schema-validator';
import { buildSpec } from '../../support/spec/spec';
import { parseSpecText } from '../../support/spec/spec-source';
import { resolveTarget } from '../../support/spec/target';

const REFERENCE = join(__dirname, '../../specs/openapi.json');
const config = { baseUrl: 'https://api.example.com', checkId: 'c1' } as Config;
// SPEC-1 and SPEC-8 send requests: they are proven by the self-test's faults, not here.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- a spec edited as plain JSON

const DOCUMENT_ONLY = SPEC_CHECKS.filter((c) => !['SPEC-1', 'SPEC-8'].includes(c.clauses[0]));

/** Runs every document check on `raw` (the reference spec when not given), each with a verdict of its own. */
async function runDocumentChecks(change: (raw: Json) => void = () => {}) {
  const raw = JSON.parse(readFileSync(REFERENCE, 'utf8'));
  change(raw);
  const spec = await buildSpec(parseSpecText(JSON.stringify(raw), REFERENCE), REFERENCE);
  const validator = new SchemaValidator(spec, false);
  const target = resolveTarget(spec, config);
  return Promise.all(
    DOCUMENT_ONLY.map(async (c) => {
      const verdict = new Verdict({ annotations: [] as TestInfo['annotations'] } as TestInfo, false).at({ place: 'spec' });
      // The document checks never call the API: a client that throws proves it.
      const api = new Proxy({}, { get: () => () => Promise.reject(new Error('no request expected')) }) as SpecContext['api'];
      await c.check({ api, config, spec, target, validator, verdict });
      return { clauses: c.clauses, tried: [...new Set(verdict.tried.map((t) => t.clause))], failures: verdict.failures };
    }),
  );
}

test('the table has one row per SPEC clause, SPEC-1..8 in order, with titles of their own', () => {
  expect(SPEC_CHECKS.map((c) => c.clauses)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [`SPEC-${n}`]));
  expect(new Set(SPEC_CHECKS.map((c) => c.title)).size).toBe(SPEC_CHECKS.length);
});

test('against the reference spec, each document check tries its own clause and fails nothing', async () => {
  for (const r of await runDocumentChecks()) {
    expect(r.tried).toEqual(r.clauses);
    expect(r.failures).toEqual([]);
  }
});

test('a check update not marked deprecated fails SPEC-5 only, stamped with its value class', async () => {
  const results = await runDocumentChecks((raw) => {
    for (const item of Object.values<Json>(raw.paths)) for (const op of Object.values<Json>(item)) delete op.deprecated;
  });
  expect(results.flatMap((r) => r.failures.map((f) => [f.clause, f.place, f.valueClass]))).toEqual([['SPEC-5', 'spec', 'deprecated']]);
});
