/**
 * Conformance has two owners: the status class belongs to the clause the request tries, what the
 * target's own spec declares (status, content type, body schema) to SPEC-9, keyed so that the reports
 * keep one failure per operation, status and schema rule.
 */
import { expect, test, type TestInfo } from '@playwright/test';
import { conform } from '../../support/checks/conformance';
import { Verdict } from '../../support/checks/verdict';
import type { Exchange } from '../../support/http/exchange';
import { SchemaValidator } from '../../support/spec/schema-validator';
import { buildSpec, type Spec } from '../../support/spec/spec';

const DOC = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/v1/runtimes': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'array', items: { type: 'object', properties: { nodeJsVersion: { type: 'string', pattern: '^v\\d+\\.\\d+\\.\\d+$' } } } },
              },
            },
          },
          '404': { description: 'no', content: { 'application/json': { schema: { type: 'object', required: ['statusCode'] } } } },
        },
      },
    },
  },
};

const info = () => ({ annotations: [] as Array<{ type: string; description?: string }> }) as unknown as TestInfo;
const answer = (status: number, json: unknown, contentType = 'application/json'): Exchange => ({
  method: 'GET',
  url: 'http://127.0.0.1:3000/v1/runtimes',
  requestHeaders: {},
  status,
  headers: { 'content-type': contentType },
  text: JSON.stringify(json),
  json,
  contentType,
  ms: 1,
});

let spec: Spec;
let validator: SchemaValidator;
test.beforeAll(async () => {
  spec = await buildSpec(DOC, 'inline');
  validator = new SchemaValidator(spec, false);
});

const judged = (ex: Exchange, intent: 'valid' | 'invalid', strict = false) => {
  const verdict = new Verdict(info(), strict);
  conform({ verdict, spec, validator, op: spec.find('get', '/v1/runtimes'), exchange: ex, intent, clause: 'AUTH-4' });
  return verdict;
};

test('an accepted request whose body breaks its schema fails SPEC-9 once per rule, not the clause it tried', () => {
  const v = judged(answer(200, [{ nodeJsVersion: '22.1.0' }, { nodeJsVersion: '20.0.0' }]), 'valid');
  expect(v.failures.map((f) => [f.clause, f.key])).toEqual([
    ['SPEC-9', expect.stringMatching(/^GET \/v1\/runtimes 200 schema .*items\/properties\/nodeJsVersion\/pattern$/)],
  ]);
  expect(v.tried.map((t) => t.clause).sort()).toEqual(['AUTH-4', 'SPEC-9']);
});

test('a valid request not accepted fails its own clause; a server error too; nothing is said of the spec then', () => {
  for (const status of [404, 500]) expect(judged(answer(status, { statusCode: status }), 'valid').failures.map((f) => f.clause)).toEqual(['AUTH-4']);
  expect(judged(answer(200, []), 'invalid').failures.map((f) => f.clause)).toEqual(['AUTH-4']);
});

test('an undeclared status, an undeclared content type, a body that is no JSON: SPEC-9, keyed by operation and status', () => {
  expect(judged(answer(204, null), 'valid').failures.map((f) => [f.clause, f.key])).toEqual([['SPEC-9', 'GET /v1/runtimes 204 status']]);
  expect(judged(answer(200, [], 'text/plain'), 'valid').failures.map((f) => [f.clause, f.key])).toEqual([['SPEC-9', 'GET /v1/runtimes 200 content-type']]);
  expect(judged({ ...answer(200, undefined), text: 'x' }, 'valid').failures.map((f) => [f.clause, f.key])).toEqual([['SPEC-9', 'GET /v1/runtimes 200 body']]);
});

test('an undeclared 4xx to an invalid request is spec drift of SPEC-9: a warning, a failure under STRICT_SPEC=on', () => {
  expect(judged(answer(401, { statusCode: 401 }), 'invalid').failures).toEqual([]);
  expect(judged(answer(401, { statusCode: 401 }), 'invalid', true).failures.map((f) => [f.clause, f.key])).toEqual([['SPEC-9', 'GET /v1/runtimes 401 status']]);
  // Declared, its body is judged by the schema.
  expect(judged(answer(404, {}), 'invalid').failures.map((f) => f.clause)).toEqual(['SPEC-9']);
});

test('the content type is the declared one, parameters and case aside: another JSON type is another media type', () => {
  const contentTypeFailures = (ct: string) => judged(answer(404, { statusCode: 404 }, ct), 'invalid').failures.map((f) => f.key);
  expect(contentTypeFailures('Application/JSON; charset=utf-8')).toEqual([]);
  expect(contentTypeFailures('application/problem+json')).toEqual(['GET /v1/runtimes 404 content-type']);
  expect(contentTypeFailures('text/json')).toEqual(['GET /v1/runtimes 404 content-type']);
});

test("a body that breaks the target's spec: the field is its JSON pointer, as ajv's instancePath, kept out of the title; the body itself has none", () => {
  const [item] = judged(answer(200, [{ nodeJsVersion: '22.1.0' }]), 'valid').failures;
  expect(item).toMatchObject({
    clause: 'SPEC-9',
    field: '/0/nodeJsVersion',
    title: 'does not match the spec schema of GET /v1/runtimes 200',
    received: '"22.1.0"',
  });
  const [whole] = judged(answer(200, { nodeJsVersion: 'v1' }), 'valid').failures;
  expect(whole.field).toBeUndefined();
  expect(whole.title).toBe('the body does not match the spec schema of GET /v1/runtimes 200');
});
