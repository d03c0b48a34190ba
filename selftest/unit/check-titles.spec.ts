/**
 * A check's title is words only, as zod keeps an issue's path and ajv an error's params apart from the
 * message: the field the check is of goes in `field`, the value found in `received`, the value wanted in
 * `allowed`. The suite's own checks, given a broken answer or a broken spec, make failures whose titles
 * name neither; the text for people puts the field before the words.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type TestInfo } from '@playwright/test';
import { checkErrorResponse } from '../../support/checks/error-checks';
import { consoleText, failureLine, failureText, type Failure } from '../../support/checks/failure';
import { Verdict } from '../../support/checks/verdict';
import type { Exchange } from '../../support/http/exchange';
import type { Config } from '../../support/run/config';
import { SPEC_CHECKS, type SpecContext } from '../../support/spec/checks';
import { SchemaValidator } from '../../support/spec/schema-validator';
import { buildSpec } from '../../support/spec/spec';
import { parseSpecText } from '../../support/spec/spec-source';
import { resolveTarget } from '../../support/spec/target';

const REFERENCE = join(__dirname, '../../specs/openapi.json');
const config = { baseUrl: 'https://api.example.com', checkId: 'c1' } as Config;
const verdict = () => new Verdict({ annotations: [] as TestInfo['annotations'] } as TestInfo, false);

const answer = (status: number, json: unknown, url = 'http://127.0.0.1:3000/v1/runtimes/1999.01'): Exchange => ({
  method: 'GET',
  url,
  requestHeaders: {},
  status,
  headers: { 'content-type': 'application/json' },
  text: JSON.stringify(json),
  json,
  contentType: 'application/json',
  ms: 1,
});

/** The received value as the check had it (a failure keeps it shown as JSON, maybe trimmed). */
const receivedValue = (f: Failure): unknown => {
  try {
    return JSON.parse(f.received);
  } catch {
    return undefined;
  }
};

/** Neither the field (each, where the check is of several) nor a received string or number is folded into the title. */
function expectWordsOnly(failures: readonly Failure[]): void {
  expect(failures.length).toBeGreaterThan(0);
  for (const f of failures) {
    const value = receivedValue(f);
    const named = [...(f.field?.split(', ') ?? []), ...(typeof value === 'string' || typeof value === 'number' ? [String(value)] : [])];
    expect(
      named.filter((x) => f.title.includes(x)),
      `${f.clause}: "${f.title}" names its field or value`,
    ).toEqual([]);
  }
}

const fieldsOf = (failures: readonly Failure[]) => failures.map((f) => [f.clause, f.field, f.received, f.allowed]);

test('the error body checks: statusCode and a documented field that breaks the shape are fields, their values received and allowed', () => {
  // One verdict each: an error body is one cause at its place and status, a failure kept once.
  const judged = (json: unknown) => {
    const v = verdict();
    checkErrorResponse({ verdict: v, exchange: answer(404, json) });
    return v.failures;
  };
  const failures = [...judged({ statusCode: 404, error: 'Not found' }), ...judged({ statusCode: 400, error: 'Not Found' })];
  const documented = '{ "statusCode": 404, "error": "Not Found", "message"?: string }';
  expect(fieldsOf(failures)).toEqual([
    ['ERR-1', 'error', '"Not found"', documented],
    ['ERR-4', 'statusCode', '400', '404'],
    ['ERR-1', 'statusCode', '400', documented],
  ]);
  expectWordsOnly(failures);
  // A field missing is received as the body that lacks it.
  expect(fieldsOf(judged({ statusCode: 404 }))[0].slice(0, 3)).toEqual(['ERR-1', 'error', '{"statusCode":404}']);
});

test('the document checks of a broken spec: the schema property, response or scheme each is of is its field', async () => {
  const raw = JSON.parse(readFileSync(REFERENCE, 'utf8'));
  const schemas = raw.components.schemas;
  schemas.Runtime.required = schemas.Runtime.required.filter((n: string) => n !== 'nodeJsVersion');
  schemas.RuntimeStage.enum = schemas.RuntimeStage.enum.filter((s: string) => s !== 'DEPRECATED');
  delete schemas.CheckUpdate.properties.retryStrategy;
  delete raw.paths['/v1/runtimes/{id}'].get.responses['404'];
  raw.components.securitySchemes.Bearer.scheme = 'basic';
  const spec = await buildSpec(parseSpecText(JSON.stringify(raw), REFERENCE), REFERENCE);
  const validator = new SchemaValidator(spec, false);
  const target = resolveTarget(spec, config);
  const failures: Failure[] = [];
  for (const c of SPEC_CHECKS.filter((x) => !['SPEC-1', 'SPEC-8'].includes(x.clauses[0]))) {
    const v = verdict().at({ place: 'spec' });
    const api = new Proxy({}, { get: () => () => Promise.reject(new Error('no request expected')) }) as SpecContext['api'];
    await c.check({ api, config, spec, target, validator, verdict: v });
    failures.push(...v.failures);
  }
  expect(failures.map((f) => `${f.clause} ${f.field}`).sort()).toEqual(
    [
      'SPEC-3 securitySchemes.Bearer',
      'SPEC-3 securitySchemes.Bearer',
      'SPEC-4 responses.404',
      'SPEC-5 retryStrategy',
      'SPEC-6 nodeJsVersion',
      'SPEC-6 Runtime.stage',
      'SPEC-7 responses.404',
    ].sort(),
  );
  expectWordsOnly(failures);
  // The stage the schema lacks is named where it is wanted.
  expect(failures.find((f) => f.field === 'Runtime.stage')!.allowed).toMatch(/^a list with DEPRECATED /);
});

test('every text of a failure puts the subject and the field before the words, and the values after them', () => {
  const v = verdict().at({ place: 'check-read', valueClass: 'unknown-id', subject: 'check 42' });
  checkErrorResponse({ verdict: v, exchange: answer(404, { statusCode: 400, error: 'Not Found' }) });
  const f = v.failures.find((x) => x.clause === 'ERR-4')!;
  expect(failureText(f).split('\n').slice(0, 3)).toEqual([
    'ERR-4 [check-read · unknown-id]: check 42: statusCode of the error body is not the HTTP status',
    '  received: 400',
    '  allowed:  404',
  ]);
  expect(failureLine(f)).toBe('[check-read · unknown-id] check 42: statusCode of the error body is not the HTTP status (received 400; allowed 404)');
  expect(consoleText(f)).toBe('check 42: statusCode of the error body is not the HTTP status (received 400; allowed 404)');
});
