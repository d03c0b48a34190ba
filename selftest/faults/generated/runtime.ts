/**
 * RT faults generated from the suite's runtime tables: every field rule of support/document/rules.ts
 * (runtimeFields) broken in every runtime, one class of value at a time (`rt-field:<field>:<value>`:
 * another type, a look-alike of the documented form, empty, null where the spec does not declare it,
 * left out where the field is required), and
 * every class of unknown id of support/runtime/ids.ts found or failing (`rt-unknown:<class>:found|fail`),
 * and each generated near miss of an accepted version found (`rt-id:<id>:found`).
 * The catch: the field's clause on the accepted versions, or RT-9 at the id's class.
 */
import { runtimeFields } from '../../../support/document/rules';
import { ACCEPTED_CLASS, generatedIds, UNKNOWN_IDS } from '../../../support/runtime/ids';
import { declaredCaseSeed } from '../../../support/run/config';
import { PLACE } from '../../../support/document/places';
import type { GeneratedFault } from '../types';
import { declaredNullable } from '../../../support/runtime/nullable-fields';
import type { SpecOperation } from '../../../support/spec/spec';
import { referenceOperation } from './check-update';
import { TEST_FILES } from '../../../support/run/test-files';

const FILES = [TEST_FILES.runtime];
type Field = keyof typeof runtimeFields;

/** `missing`: left out (required fields only: an optional one may be absent). */
const MISSING = 'missing';

/** Values the document forbids, by class, for each field (null is added below, where the reference's spec does not declare it). */
const LISTED_BAD_VALUES: Readonly<Record<Field, Record<string, unknown>>> = {
  name: { 'look-alike': '2024.9', 'other-type': 2024.09, empty: '', missing: MISSING },
  nodeJsVersion: { 'look-alike': '22.11.0', 'two-parts': 'v22.11', 'other-case': 'V22.11.0', 'other-type': 22, missing: MISSING },
  multiStepSupport: { 'boolean-string': 'true', 'other-type': 1, missing: MISSING },
  stage: { 'other-case': 'stable', 'look-alike': 'GA', 'other-type': 1, empty: '' },
  runtimeEndOfLife: { iso: '2025-12-31', 'no-such-day': '02/30/2025', 'short-year': '12/31/25', 'other-type': 20251231, empty: '' },
  dependencies: { empty: {}, array: ['lodash'], 'number-version': { lodash: 4.17 }, 'empty-name': { '': '1.0.0' }, missing: MISSING },
  description: { 'other-type': 2024, boolean: true, object: {}, array: ['a'] },
};

/** The reference's runtime operation, as a run against it reads it. */
const RUNTIME_OP = { method: 'get', path: '/v1/runtimes/{id}', pointer: '', op: referenceOperation('get', '/v1/runtimes/{id}') } as SpecOperation;

/** Null breaks every field the reference's spec does not declare nullable, optional ones too (support/runtime/nullable-fields.ts). */
export const BAD_RUNTIME_VALUES: Readonly<Record<Field, Record<string, unknown>>> = Object.fromEntries(
  Object.entries(LISTED_BAD_VALUES).map(([field, values]) => [field, declaredNullable(RUNTIME_OP, field) ? values : { ...values, null: null }]),
) as Record<Field, Record<string, unknown>>;

const arg = (v: unknown) => (v === MISSING ? MISSING : encodeURIComponent(JSON.stringify(v)));

export const RUNTIME_FIELD_GENERATED: GeneratedFault[] = Object.entries(BAD_RUNTIME_VALUES).flatMap(([field, values]) =>
  Object.values(values).map((v): GeneratedFault => ({
    fault: `rt-field:${field}:${arg(v)}`,
    clause: runtimeFields[field as Field].clause,
    place: PLACE.runtime,
    valueClass: ACCEPTED_CLASS,
    direction: 'loose',
    files: FILES,
  })),
);

export const RUNTIME_UNKNOWN_GENERATED: GeneratedFault[] = [...new Set(UNKNOWN_IDS.map((u) => u.valueClass))].flatMap((cls) =>
  (['found', 'fail'] as const).map((answer): GeneratedFault => ({
    fault: `rt-unknown:${cls}:${answer}`,
    clause: 'RT-9',
    place: PLACE.runtime,
    valueClass: cls,
    direction: 'loose',
    files: FILES,
  })),
);

/**
 * The near misses the suite sends (the same generation, the same seed), each found by a lookup that
 * trims or folds it onto a served version (`rt-id:<id>:found`): caught as RT-9 at the near miss's class.
 */
export const RUNTIME_NEAR_MISS_GENERATED: GeneratedFault[] = generatedIds(declaredCaseSeed()).map((g) => ({
  fault: `rt-id:${g.id}:found`,
  clause: 'RT-9',
  place: PLACE.runtime,
  valueClass: g.valueClass,
  direction: 'loose',
  files: FILES,
}));
