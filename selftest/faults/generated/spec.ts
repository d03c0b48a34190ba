/**
 * SPEC faults generated from what the spec tests require item by item: each node of the reference's
 * openapi.json that one of those checks reads, cut out (`spec-drop:<json-pointer>`): the runtime
 * operation's path parameter, account header and 404 and 429 responses (SPEC-4); the update's
 * deprecated flag, path and query parameters and retryStrategy (SPEC-5); each required
 * Runtime field and each stage (SPEC-6); and each field the document marks optional, added to the Runtime
 * schema's required list (`spec-add:<json-pointer>:<json-value>`, SPEC-6). The catch: the clause at place
 * spec, with the item's class.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPTIONAL_RUNTIME_FIELDS, REQUIRED_RUNTIME_FIELDS } from '../../../support/document/rules';
import { RUNTIME_STAGES } from '../../../support/document/facts';
import type { ClauseId } from '../../../support/document/clauses';
import type { GeneratedFault } from '../types';
import { TEST_FILES } from '../../../support/run/test-files';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const FILES = [TEST_FILES.spec];
const doc: Json = JSON.parse(readFileSync(join(__dirname, '../../../specs/openapi.json'), 'utf8'));
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const pointer = (...keys: Array<string | number>) => `/${keys.map((k) => escape(String(k))).join('/')}`;

const RUNTIME = ['paths', '/v1/runtimes/{id}', 'get'];
const UPDATE = ['paths', '/v1/checks/{id}', 'put'];
const at = (keys: string[]): Json => keys.reduce((n, k) => n?.[k], doc);
const paramIndex = (op: string[], where: string) => (at(op).parameters as Json[]).findIndex((p) => p.in === where);
/** The schema a $ref names, by its components key. */
const refName = (node: Json) => String(node.$ref).split('/').pop()!;
const updateBody = refName(at(UPDATE).requestBody.content['application/json'].schema);
const stageSchema = refName(doc.components.schemas.Runtime.properties.stage);

interface Drop {
  keys: Array<string | number>;
  clause: ClauseId;
  valueClass: string;
  /** The part of the document (the reach's aspect): drops of one part and the hand-written faults on it do not share a run. */
  part: string;
}

const DROPS: Drop[] = [
  { keys: [...RUNTIME, 'parameters', paramIndex(RUNTIME, 'path')], clause: 'SPEC-4', valueClass: 'path-parameter', part: 'runtime-operation' },
  { keys: [...RUNTIME, 'parameters', paramIndex(RUNTIME, 'header')], clause: 'SPEC-4', valueClass: 'account-header', part: 'runtime-operation' },
  ...['404', '429'].map((s): Drop => ({ keys: [...RUNTIME, 'responses', s], clause: 'SPEC-4', valueClass: `response-${s}`, part: 'runtime-operation' })),
  { keys: [...UPDATE, 'deprecated'], clause: 'SPEC-5', valueClass: 'deprecated', part: 'update-operation' },
  { keys: [...UPDATE, 'parameters', paramIndex(UPDATE, 'path')], clause: 'SPEC-5', valueClass: 'path-parameter', part: 'update-operation' },
  { keys: [...UPDATE, 'parameters', paramIndex(UPDATE, 'query')], clause: 'SPEC-5', valueClass: 'query-parameter', part: 'update-operation' },
  // Not frequencyOffset: the suite knows the update by it, so without it there is no update to judge (SPEC-5 fails unplaced).
  { keys: ['components', 'schemas', updateBody, 'properties', 'retryStrategy'], clause: 'SPEC-5', valueClass: 'body-retryStrategy', part: 'update-body' },
  ...REQUIRED_RUNTIME_FIELDS.map((name): Drop => ({
    keys: ['components', 'schemas', 'Runtime', 'required', (doc.components.schemas.Runtime.required as string[]).indexOf(name)],
    clause: 'SPEC-6',
    valueClass: `required-${name}`,
    part: 'runtime-schema',
  })),
  ...RUNTIME_STAGES.map((stage): Drop => ({
    keys: ['components', 'schemas', stageSchema, 'enum', (doc.components.schemas[stageSchema].enum as string[]).indexOf(stage)],
    clause: 'SPEC-6',
    valueClass: `stage-${stage}`,
    part: 'runtime-schema',
  })),
];

for (const d of DROPS)
  if (d.keys.some((k) => k === -1)) throw new Error(`selftest/faults/generated/spec.ts: the reference's spec has no node for ${d.clause} ${d.valueClass}`);

const RUNTIME_REQUIRED = pointer('components', 'schemas', 'Runtime', 'required');
const ADDITIONS = OPTIONAL_RUNTIME_FIELDS.map((name) => ({
  fault: `spec-add:${encodeURIComponent(RUNTIME_REQUIRED)}:${encodeURIComponent(JSON.stringify(name))}`,
  valueClass: `optional-${name}`,
}));

export const SPEC_GENERATED: GeneratedFault[] = [
  ...DROPS.map((d): GeneratedFault => ({
    fault: `spec-drop:${encodeURIComponent(pointer(...d.keys))}`,
    clause: d.clause,
    place: 'spec',
    valueClass: d.valueClass,
    direction: 'loose',
    files: FILES,
  })),
  ...ADDITIONS.map((a): GeneratedFault => ({ fault: a.fault, clause: 'SPEC-6', place: 'spec', valueClass: a.valueClass, direction: 'strict', files: FILES })),
  // The other side of the stage enum: a value that is no stage (a drop cannot add one).
  { fault: 'spec-stage-extra', clause: 'SPEC-6', place: 'spec', valueClass: 'stage-other', direction: 'loose', files: FILES },
];

/** The part of the document each generated drop cuts from (its reach: `spec#<part>:<class>`). */
export const specDropPart = (fault: string): string | undefined => {
  const i = SPEC_GENERATED.findIndex((f) => f.fault === fault);
  if (i >= 0 && i < DROPS.length) return `${DROPS[i].part}:${DROPS[i].valueClass}`;
  const added = ADDITIONS.find((a) => a.fault === fault);
  return added && `runtime-schema:${added.valueClass}`;
};
