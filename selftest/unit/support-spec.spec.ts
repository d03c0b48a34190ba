/** Reading real-world specs: the published document of the real service, read as it is. */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { buildSpec, Spec } from '../../support/spec/spec';
import { fetchSpecText, notOpenApi, parseSpecText } from '../../support/spec/spec-source';
import { SchemaValidator, translateOpenApi30 } from '../../support/spec/schema-validator';
import { canonicalPointer } from '../../support/checks/conformance';
import { findUpdateOp } from '../../support/spec/target';
import { PUBLISHED_SPEC_FILE, publishedSpec } from './published-spec';

const PUBLISHED = PUBLISHED_SPEC_FILE;

test.describe('the published spec of the real service', () => {
  const load = publishedSpec;

  test('is read despite raw newlines inside JSON strings', async () => {
    const text = readFileSync(PUBLISHED, 'utf8');
    expect(() => JSON.parse(text)).toThrow();
    const spec = await load();
    expect(spec.operations.length).toBeGreaterThan(100);
  });

  test('names its five dangling references as problems and still resolves the rest', async () => {
    const spec = await load();
    expect(spec.problems).toHaveLength(1);
    expect(spec.problems[0]).toContain('ChecksV1DnsRequestPatch');
    expect(spec.problems[0]).toMatch(/^5 \$ref/);
    expect(spec.find('get', '/v1/runtimes/{whatever}')?.op.responses?.['200']).toBeDefined();
  });

  test('gives the account header name and the deprecated update operation', async () => {
    const spec = await load();
    expect(spec.accountHeaderOf(spec.find('get', '/v1/runtimes/{id}'))).toBe('x-checkly-account');
    const update = findUpdateOp(spec);
    expect(update && `${update.method} ${update.path}`).toBe('put /v1/checks/{id}');
    expect(update?.op.deprecated).toBe(true);
  });

  test('validates bodies against its schemas, OpenAPI 3.0 nullable included', async () => {
    const spec = await load();
    const validator = new SchemaValidator(spec);
    const pointer = canonicalPointer(spec.raw, ['paths', '/v1/checks/{id}', 'put', 'requestBody', 'content', 'application/json', 'schema'])!;
    expect(validator.validate(pointer, { description: null, locations: null, runtimeId: null, groupOrder: null })).toEqual([]);
    expect(validator.validate(pointer, { groupOrder: -1 })).toEqual([
      { path: '/groupOrder', message: 'must be >= 0', rule: expect.stringMatching(/groupOrder\/.*minimum$/) },
    ]);
    const runtime = canonicalPointer(spec.raw, ['paths', '/v1/runtimes/{id}', 'get', 'responses', '200', 'content', 'application/json', 'schema'])!;
    expect(validator.validate(runtime, { name: '2025.04', multiStepSupport: 'yes', nodeJsVersion: 'v22.1.0', dependencies: {} })).toEqual([
      { path: '/multiStepSupport', message: 'must be boolean', rule: expect.stringMatching(/multiStepSupport\/type$/) },
    ]);
  });
});

test('nullable without a type beside it admits null and keeps the other keywords', () => {
  const out = translateOpenApi30({ nullable: true, enum: ['A', 'B'] });
  expect(out).toEqual({ anyOf: [{ enum: ['A', 'B'] }, { type: 'null' }] });
});

test('boolean exclusiveMinimum (OpenAPI 3.0) becomes the numeric form', () => {
  expect(translateOpenApi30({ type: 'number', minimum: 1, exclusiveMinimum: true })).toEqual({ type: 'number', exclusiveMinimum: 1 });
  expect(translateOpenApi30({ type: 'number', minimum: 1, exclusiveMinimum: false })).toEqual({ type: 'number', minimum: 1 });
});

test('a spec with a server path prefix is found by the full path', async () => {
  const spec = await buildSpec(
    {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      servers: [{ url: 'https://api.example.com/v1' }],
      paths: { '/runtimes/{runtimeId}': { get: { responses: { 200: { description: 'ok' } } } } },
    },
    'inline',
  );
  expect(spec.find('get', '/v1/runtimes/{id}')?.path).toBe('/v1/runtimes/{runtimeId}');
  expect(spec.problems).toEqual([]);
});

test('a document that is not OpenAPI 3 is reported, not thrown', async () => {
  const spec = await buildSpec({ swagger: '2.0', info: { title: 't', version: '1' }, paths: {} }, 'inline');
  expect(spec.problems[0]).toMatch(/not 3\.x/);
});

test('a YAML document is read as well as JSON; neither is one line naming the origin', () => {
  expect(parseSpecText('openapi: 3.0.3\ninfo:\n  title: t\n  version: "1"\npaths: {}\n', 'inline')).toEqual({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {},
  });
  expect(() => parseSpecText('{ "openapi": [', 'https://example.com/openapi.json')).toThrow(
    /^the document at https:\/\/example.com\/openapi.json is neither JSON nor YAML/,
  );
});

test('a target that answers without a spec is told apart from one that cannot be reached', async () => {
  const server = createServer((req, res) => {
    if (req.url === '/html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>hello</body></html>');
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"statusCode":404,"error":"Not Found"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    await expect(fetchSpecText(`${base}/openapi.json`)).rejects.toMatchObject({ kind: 'no-spec' });
    await expect(fetchSpecText(`${base}/openapi.json`)).rejects.toThrow(/answered 404/);
    const html = parseSpecText(await fetchSpecText(`${base}/html`), 'html');
    expect(notOpenApi(html, 'html')).toMatch(/not a JSON object/);
  } finally {
    server.close();
  }
  await expect(fetchSpecText('http://127.0.0.1:2/openapi.json')).rejects.toMatchObject({ kind: 'unreachable' });
  expect(notOpenApi({ statusCode: 404, error: 'Not Found' }, 'x')).toMatch(/no OpenAPI document/);
  // Broken, but an OpenAPI document: read, and SPEC-1 names its problems.
  expect(notOpenApi({ swagger: '2.0', paths: {} }, 'x')).toBeUndefined();
  expect(notOpenApi({ openapi: '3.0.3' }, 'x')).toBeUndefined();
});

test.describe('validators kept between runs', () => {
  // Formats, OpenAPI 3.0 nullable, a circular reference and a schema ajv cannot compile.
  const raw = {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {},
    components: {
      schemas: {
        Node: {
          type: 'object',
          required: ['id', 'at'],
          properties: {
            id: { type: 'string', format: 'uuid' },
            at: { type: 'string', format: 'date-time' },
            note: { type: 'string', nullable: true, maxLength: 3 },
            guid: { type: 'string', format: 'guid' },
            children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
          },
        },
        Broken: { $ref: '#/components/schemas/Missing' },
      },
    },
  };
  const bodies = [
    { id: '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c', at: '2026-01-02T03:04:05Z', note: null, guid: 'x' },
    { id: 'nope', at: 'yesterday', note: 'long', children: [{ id: 1 }] },
    [],
  ];
  const pointers = ['/components/schemas/Node', '/components/schemas/Broken'];

  test('a validator loaded from an earlier run judges as one compiled now', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kept-validators-'));
    const spec = new Spec(raw, raw, [], 'inline');
    const fresh = new SchemaValidator(spec, false);
    const first = new SchemaValidator(spec, dir);
    const judged = (v: SchemaValidator) => pointers.flatMap((p) => bodies.map((b) => v.validate(p, b)));
    expect(judged(first)).toEqual(judged(fresh));
    expect(
      judged(fresh)
        .flat()
        .map((p) => p.path),
    ).toEqual(expect.arrayContaining(['/id', '/at', '/note', '/children/0/id']));
    // One folder for the spec, one file per schema, the uncompilable one included.
    const [kept] = readdirSync(dir);
    expect(readdirSync(join(dir, kept))).toHaveLength(2);

    const second = new SchemaValidator(spec, dir);
    expect(judged(second)).toEqual(judged(fresh));
    // Loaded, not compiled: this validator never made an ajv instance.
    expect((second as unknown as { ajvInstance?: unknown }).ajvInstance).toBeUndefined();

    // Another spec is another key.
    const other = new SchemaValidator(new Spec({ ...raw, info: { title: 'u', version: '1' } }, raw, [], 'inline'), dir);
    other.validate(pointers[0], bodies[0]);
    expect(readdirSync(dir)).toHaveLength(2);
  });
});
