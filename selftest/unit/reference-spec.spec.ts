// The served documents: openapi.json validates, describes what the service does; swagger.json is older and smaller.
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect, test } from '@playwright/test';
import { call } from './reference-testing';
import { service } from './reference-service';

test('spec: openapi.json is valid OpenAPI 3.0.3 with the documented operations', async () => {
  const app = await service();
  const r = await call(app, { url: '/openapi.json', headers: {} });
  expect(r.status).toBe(200);
  const doc = r.body;
  await SwaggerParser.validate(structuredClone(doc));
  expect(doc.openapi).toBe('3.0.3');
  expect(Object.keys(doc.paths).sort()).toEqual(['/v1/checks/{id}', '/v1/runtimes', '/v1/runtimes/{id}']);
  expect(doc.components.securitySchemes).toEqual({ Bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
  const rt = doc.paths['/v1/runtimes/{id}'].get;
  expect(Object.keys(rt.responses)).toEqual(expect.arrayContaining(['200', '404', '429']));
  expect(rt.parameters).toContainEqual(expect.objectContaining({ name: 'X-Service-Account', in: 'header', required: false }));
  expect(doc.paths['/v1/runtimes'].get.description).toContain('**Rate-limiting is applied to this endpoint, you can send 20 requests / 10 seconds at most.**');
  const putOp = doc.paths['/v1/checks/{id}'].put;
  expect(putOp.deprecated).toBe(true);
  expect(putOp.description).toMatch(/^\[DEPRECATED\].*PUT \/checks\/api\/\{id\}.*PUT \/checks\/browser\/\{id\}/);
  expect(Object.keys(doc.components.schemas.CheckUpdate.properties)).toEqual(expect.arrayContaining(['frequencyOffset', 'retryStrategy']));
  expect(doc.components.schemas.Runtime.required).toEqual(['name', 'multiStepSupport', 'nodeJsVersion', 'dependencies']);
  await app.close();
});

test('spec: the account header name follows REF_ACCOUNT_HEADER', async () => {
  const app = await service([], { accountHeader: 'X-Acme-Account' });
  const doc = (await call(app, { url: '/openapi.json', headers: {} })).body;
  expect(doc.paths['/v1/runtimes/{id}'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['id', 'X-Acme-Account']);
  await app.close();
});

test('spec: swagger.json is deprecated, older, and declares nothing openapi.json lacks', async () => {
  const app = await service();
  const o = await call(app, { url: '/openapi.json', headers: {} });
  const s = await call(app, { url: '/swagger.json', headers: {} });
  expect(s.body.swagger).toBe('2.0');
  expect(s.body.info.description).toMatch(/deprecated/i);
  expect(Date.parse(String(s.headers['last-modified']))).toBeLessThan(Date.parse(String(o.headers['last-modified'])));
  for (const [path, item] of Object.entries<Record<string, unknown>>(s.body.paths)) {
    for (const method of Object.keys(item)) expect(o.body.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  }
  await app.close();
});

test('spec-drop:<pointer> cuts out the nodes it names; two cuts in one array each take the element they meant', async () => {
  const enumOf = async (faults: string[]) => {
    const app = await service(faults);
    try {
      const doc = JSON.parse((await app.inject({ url: '/openapi.json' })).body);
      return { stages: doc.components.schemas.RuntimeStage.enum, deprecated: doc.paths['/v1/checks/{id}'].put.deprecated };
    } finally {
      await app.close();
    }
  };
  const drop = (p: string) => `spec-drop:${encodeURIComponent(p)}`;
  expect(
    await enumOf([
      drop('/components/schemas/RuntimeStage/enum/0'),
      drop('/components/schemas/RuntimeStage/enum/5'),
      drop('/paths/~1v1~1checks~1{id}/put/deprecated'),
    ]),
  ).toEqual({
    stages: ['BETA', 'CURRENT', 'DEPRECATED', 'REMOVED'],
    deprecated: undefined,
  });
  expect((await enumOf([drop('/components/schemas/Nothing/here')])).stages).toHaveLength(6);
});

test('spec-add:<pointer>:<value> appends the value to the array it names, and leaves the document alone where there is none', async () => {
  const requiredOf = async (faults: string[]) => {
    const app = await service(faults);
    try {
      return JSON.parse((await app.inject({ url: '/openapi.json' })).body).components.schemas.Runtime.required as string[];
    } finally {
      await app.close();
    }
  };
  const add = (p: string, v: unknown) => `spec-add:${encodeURIComponent(p)}:${encodeURIComponent(JSON.stringify(v))}`;
  const plain = await requiredOf([]);
  expect(await requiredOf([add('/components/schemas/Runtime/required', 'stage')])).toEqual([...plain, 'stage']);
  expect(await requiredOf([add('/components/schemas/Runtime/name', 'stage')])).toEqual(plain);
});
