// A Runtime field sent as null is absent only where the target's spec declares it nullable (RT-5/6/8).
import { expect, test } from '@playwright/test';
import { declaredNullable } from '../../support/runtime/nullable-fields';
import type { SpecOperation } from '../../support/spec/spec';

const opWith = (description: object, key = '200'): SpecOperation =>
  ({
    method: 'get',
    path: '/v1/runtimes/{id}',
    pointer: '',
    op: { responses: { [key]: { description: 'ok', content: { 'application/json': { schema: { allOf: [{ properties: { description } }] } } } } } },
  }) as unknown as SpecOperation;

test('nullable by 3.0 nullable, a 3.1 type list or a null branch; a plain string is not', () => {
  expect(declaredNullable(opWith({ type: 'string', nullable: true }), 'description')).toBe(true);
  expect(declaredNullable(opWith({ type: ['string', 'null'] }), 'description')).toBe(true);
  expect(declaredNullable(opWith({ anyOf: [{ type: 'string' }, { type: 'null' }] }), 'description')).toBe(true);
  expect(declaredNullable(opWith({ type: 'string', minLength: 1 }), 'description')).toBe(false);
});

test('the 2XX range stands for 200; a field or an answer the spec does not describe is not nullable', () => {
  expect(declaredNullable(opWith({ type: 'string', nullable: true }, '2XX'), 'description')).toBe(true);
  expect(declaredNullable(opWith({ type: 'string', nullable: true }), 'stage')).toBe(false);
  expect(declaredNullable(undefined, 'description')).toBe(false);
});
