// rt-field / rt-unknown: the runtime faults generated from the suite's tables. Each bends one field
// of every runtime, or the answer to one class of unknown ids, and leaves everything else as it was.
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { call } from './reference-testing';
import { service } from './reference-service';
import { idShape } from '../faults/outside/runtime-id-shape';
import { runtimeFields } from '../../support/document/rules';
import { decodedId, UNKNOWN_IDS } from '../../support/runtime/ids';
import { BAD_RUNTIME_VALUES, RUNTIME_FIELD_GENERATED, RUNTIME_UNKNOWN_GENERATED } from '../faults/generated/runtime';

let app: FastifyInstance | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

test('every generated value breaks its field by the suite’s own rule (or is a required field left out)', () => {
  for (const [field, values] of Object.entries(BAD_RUNTIME_VALUES)) {
    const rule = runtimeFields[field as keyof typeof runtimeFields];
    for (const [cls, v] of Object.entries(values)) {
      if (v === 'missing') expect(rule.required, `${field}: ${cls}`).toBe(true);
      else expect(rule.schema.safeParse(v).success, `${field}: ${cls}`).toBe(false);
    }
  }
});

test('rt-field sets one field of every runtime, or leaves it out; the others stay', async () => {
  app = await service(['rt-field:stage:%22stable%22', 'rt-field:dependencies:missing']);
  for (const id of ['2026.04', '2022.10']) {
    const r = await call(app, { url: `/v1/runtimes/${id}` });
    expect(r.status).toBe(200);
    expect(r.body.stage).toBe('stable');
    expect(r.body).not.toHaveProperty('dependencies');
    expect(r.body.name).toBe(id);
  }
  const list = await call(app, { url: '/v1/runtimes' });
  expect(list.body.every((rt: { stage?: string }) => rt.stage === 'stable')).toBe(true);
});

test('the reference sorts the suite’s unknown ids into the same classes (two readings of one table)', () => {
  for (const u of UNKNOWN_IDS) expect(idShape(u.id, decodedId(u.id) ?? u.id), u.what).toBe(u.valueClass);
});

test('rt-unknown answers the ids of one class 200 or 500; the other classes and the real versions are unchanged', async () => {
  app = await service(['rt-unknown:look-alike:found', 'rt-unknown:encoded:fail']);
  for (const u of UNKNOWN_IDS) {
    const r = await call(app, { url: `/v1/runtimes/${u.id}` });
    const expected = decodedId(u.id) === undefined ? 404 : u.valueClass === 'look-alike' ? 200 : u.valueClass === 'encoded' ? 500 : 404;
    expect(r.status, u.what).toBe(expected);
  }
  expect((await call(app, { url: '/v1/runtimes/2024.09' })).body.name).toBe('2024.09');
});

test('the generated lists: one fault per value and per class and answer, each on its clause', () => {
  const values = Object.values(BAD_RUNTIME_VALUES).reduce((n, v) => n + Object.keys(v).length, 0);
  expect(RUNTIME_FIELD_GENERATED).toHaveLength(values);
  expect(new Set(RUNTIME_FIELD_GENERATED.map((f) => f.fault)).size).toBe(values);
  expect(RUNTIME_UNKNOWN_GENERATED).toHaveLength(new Set(UNKNOWN_IDS.map((u) => u.valueClass)).size * 2);
  for (const f of RUNTIME_UNKNOWN_GENERATED) expect(f.clause).toBe('RT-9');
});
