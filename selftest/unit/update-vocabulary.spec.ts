/**
 * Resolving the check update body's properties by meaning (update-vocabulary): the published spec's
 * names where the body has them, else the property whose enum or name and type fit what the document
 * describes; nothing where none fits.
 */
import { expect, test } from '@playwright/test';
import { buildSpec } from '../../support/spec/spec';
import { findUpdateOp, jsonBodySchema, resolveTarget } from '../../support/spec/target';
import type { Config } from '../../support/run/config';
import { missingReason, PUBLISHED_NAMES, requiresFullBody, resolveVocabulary, specFactsOf } from '../../support/check-update/vocabulary';
import { publishedSpec } from './published-spec';
import { CHECK_TYPES, KNOWN_FREQUENCIES, LOCATIONS, RUNTIME_VERSIONS } from '../../support/document/facts';

/** A spec whose check update names every property otherwise, in the given body schema. */
async function inlineSpec(body: Record<string, unknown>) {
  return buildSpec(
    {
      openapi: '3.0.3',
      info: { title: 'other', version: '1' },
      paths: {
        '/v1/checks/{checkId}': {
          get: { responses: { 200: { description: 'ok' } } },
          patch: { deprecated: true, requestBody: { content: { 'application/json': { schema: body } } }, responses: { 200: { description: 'ok' } } },
        },
      },
    },
    'inline',
  );
}

const OTHER_NAMES = {
  type: 'object',
  required: ['displayName', 'kind'],
  properties: {
    // Declared before the real ones, to show that a look-alike does not win by order.
    notes: { type: 'string', maxLength: 2000 },
    displayName: { type: 'string', minLength: 1 },
    summary: { type: 'string', nullable: true, maxLength: 500 },
    sortOrder: { type: 'integer', nullable: true, minimum: 0 },
    regions: { type: 'array', items: { type: 'string', enum: [...LOCATIONS] } },
    privateRegions: { type: 'array', items: { type: 'string' } },
    engine: { type: 'string', enum: [...RUNTIME_VERSIONS, null], nullable: true },
    kind: { type: 'string', enum: CHECK_TYPES.filter((t) => t !== 'GRPC') },
    interval: { type: 'integer', enum: [...KNOWN_FREQUENCIES] },
    frequencyOffset: { type: 'integer', minimum: 1 },
    retryStrategy: { type: 'object', nullable: true },
  },
};

test('the published spec: every property by its published name', async () => {
  const spec = await publishedSpec();
  const body = jsonBodySchema(findUpdateOp(spec));
  expect(resolveVocabulary(body)).toEqual(PUBLISHED_NAMES);
  // A partial update: no required properties, so each cell sends only its change.
  expect(requiresFullBody(resolveTarget(spec, { baseUrl: 'https://api.example.com' } as Config))).toBe(false);
});

test('other names: each property found by its meaning', async () => {
  const spec = await inlineSpec(OTHER_NAMES);
  const target = resolveTarget(spec, { baseUrl: 'https://api.example.com' } as Config);
  expect(target.updateOp?.method).toBe('patch');
  expect(resolveVocabulary(jsonBodySchema(target.updateOp))).toEqual({
    name: 'displayName',
    description: 'summary',
    groupOrder: 'sortOrder',
    locations: 'regions',
    runtimeId: 'engine',
    checkType: 'kind',
    frequency: 'interval',
    frequencyOffset: 'frequencyOffset',
  });
  // Required properties: a replace, so each cell sends the whole state with its change.
  expect(requiresFullBody(target)).toBe(true);
});

test('published names win where present; meaning fills the rest; a look-alike never', () => {
  const body = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      checkName: { type: 'string' },
      description: { type: 'string', maxLength: 510 },
      frequencyOffset: { type: 'integer' },
      // Only named like the frequency, no enum: still the frequency (an integer named so).
      Frequency: { type: 'integer' },
      // An order that is not a number, and a string with a description-like length: neither qualifies.
      displayOrder: { type: 'string' },
      // Three locations only: not "the documented locations".
      zones: { type: 'array', items: { enum: LOCATIONS.slice(0, 3) } },
      // An array of check types is not the check type.
      types: { type: 'array', items: { enum: [...CHECK_TYPES] } },
    },
  };
  expect(resolveVocabulary(body)).toEqual({
    name: 'name',
    description: 'description',
    groupOrder: undefined,
    locations: undefined,
    runtimeId: undefined,
    checkType: undefined,
    frequency: 'Frequency',
    frequencyOffset: 'frequencyOffset',
  });
});

test('a description without the word: the string with a maximum near 500; frequencyOffset never taken for the frequency', () => {
  const body = {
    properties: {
      frequencyOffset: { type: 'integer', enum: [...KNOWN_FREQUENCIES] },
      note: { type: ['string', 'null'], maxLength: 500 },
      label: { type: 'string' },
      checkName: { type: 'string' },
    },
  };
  const v = resolveVocabulary(body);
  expect(v).toMatchObject({ description: 'note', name: 'checkName', frequency: undefined, frequencyOffset: 'frequencyOffset' });
});

test('allOf parts are looked through; nothing at all resolves nothing', () => {
  const body = {
    allOf: [{ properties: { name: { type: 'string' } } }, { properties: { position_order: { anyOf: [{ type: 'integer' }, { type: 'null' }] } } }],
  };
  expect(resolveVocabulary(body)).toMatchObject({ name: 'name', groupOrder: 'position_order' });
  const none = resolveVocabulary(undefined);
  expect(Object.values(none).every((x) => x === undefined)).toBe(true);
  expect(missingReason(none, ['name', 'locations'])).toMatch(/for name \(name of the check\), locations \(data center locations\), by/);
  expect(missingReason({ ...none, name: 'title' }, ['name'])).toBeUndefined();
});

test.describe('what the spec says where the document is silent (specFactsOf)', () => {
  test('the published spec: description, locations and runtimeId nullable; description a string; the lists enumerated', async () => {
    const spec = await publishedSpec();
    const facts = specFactsOf(jsonBodySchema(findUpdateOp(spec)));
    expect(['description', 'locations', 'runtimeId', 'groupOrder'].map(facts.nullable)).toEqual([true, true, true, true]);
    expect(['checkType', 'frequencyOffset', 'name'].map(facts.nullable)).toEqual([false, false, false]);
    expect(facts.admits('description', 'string')).toBe(true);
    expect(['number', 'boolean', 'array', 'object'].map((t) => facts.admits('description', t as 'number'))).toEqual([false, false, false, false]);
    expect(facts.enumOf('locations')).toEqual([...LOCATIONS]);
    expect(facts.enumOf('frequency')).toEqual([...KNOWN_FREQUENCIES]);
  });

  test('null declared four ways: 3.0 nullable, a 3.1 type list, a null branch, a null in the enum', () => {
    const facts = specFactsOf({
      properties: {
        a: { type: 'string', nullable: true },
        b: { type: ['string', 'null'] },
        c: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        d: { type: 'string', enum: ['x', null] },
        e: { type: 'string' },
      },
    });
    expect(['a', 'b', 'c', 'd', 'e'].map(facts.nullable)).toEqual([true, true, true, true, false]);
  });

  test('a property whose schema does not constrain its type admits every type; an absent one too', () => {
    const facts = specFactsOf({ properties: { free: {}, typed: { type: 'integer' } } });
    expect(facts.admits('free', 'object')).toBe(true);
    expect(facts.admits('absent', 'array')).toBe(true);
    expect(facts.admits('typed', 'number')).toBe(true);
    expect(facts.admits('typed', 'string')).toBe(false);
  });
});
