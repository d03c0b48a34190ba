/**
 * SPEC checks of the schemas the document gives: the Runtime (SPEC-6), and the runtime operation's
 * error bodies (SPEC-7), tried with bodies the document shows and bodies it forbids.
 */
import type { OpenAPIV3 } from 'openapi-types';
import { RUNTIME_PATH, RUNTIME_STAGES } from '../document/facts';
import { OPTIONAL_RUNTIME_FIELDS, REQUIRED_RUNTIME_FIELDS } from '../document/rules';
import { canonicalPointer, declaredResponseKey } from '../checks/conformance';
import { pointerTokens } from './spec';
import { enumOf, schemaProperties } from './target';
import type { SpecContext } from './checks';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The schema of a response's JSON content, whatever its JSON media type. */
const jsonSchemaOf = (response: unknown): Json => {
  const content = (response as OpenAPIV3.ResponseObject | undefined)?.content ?? {};
  const key = Object.keys(content).find((k) => /json/i.test(k));
  return key ? content[key].schema : undefined;
};

/** SPEC-6: Runtime requires the document's required fields, none of its optional ones, and lists exactly the stages. */
export function runtimeSchema({ target, verdict }: SpecContext): void {
  const schema: Json = jsonSchemaOf(target.runtimeOp?.op.responses?.['200']);
  if (
    !verdict.check({
      clause: 'SPEC-6',
      ok: !!schema,
      title: 'the runtime operation declares no JSON schema for 200',
      received: 'none',
      allowed: 'the Runtime schema',
    })
  )
    return;
  // Required names may be spread over allOf parts.
  const required: string[] = [...(schema.required ?? []), ...(schema.allOf ?? []).flatMap((p: Json) => p?.required ?? [])];
  for (const name of REQUIRED_RUNTIME_FIELDS)
    verdict.at({ valueClass: `required-${name}` }).check({
      clause: 'SPEC-6',
      ok: required.includes(name),
      field: name,
      title: 'is not required by the Runtime schema',
      received: required,
      allowed: REQUIRED_RUNTIME_FIELDS.join(', '),
    });
  // And no field the document marks "Required: no": the spec would promise what the document does not.
  for (const name of OPTIONAL_RUNTIME_FIELDS)
    verdict.at({ valueClass: `optional-${name}` }).check({
      clause: 'SPEC-6',
      ok: !required.includes(name),
      field: name,
      title: 'is required by the Runtime schema, though the document marks it optional',
      received: required,
      allowed: `${REQUIRED_RUNTIME_FIELDS.join(', ')}, and not ${OPTIONAL_RUNTIME_FIELDS.join(', ')}`,
    });
  const values = enumOf(schemaProperties(schema).stage) ?? [];
  const actual = [...new Set(values.filter((v) => v !== null).map(String))].sort();
  // Each stage, and nothing else: one check per stage, so that a missing one is named.
  for (const stage of RUNTIME_STAGES)
    verdict.at({ valueClass: `stage-${stage}` }).check({
      clause: 'SPEC-6',
      ok: actual.includes(stage),
      field: 'Runtime.stage',
      title: 'does not list a stage of the document',
      received: actual,
      allowed: `a list with ${stage} (the stages: ${RUNTIME_STAGES.join(', ')})`,
    });
  const others = actual.filter((v) => !(RUNTIME_STAGES as readonly string[]).includes(v));
  verdict.at({ valueClass: 'stage-other' }).check({
    clause: 'SPEC-6',
    ok: others.length === 0,
    field: 'Runtime.stage',
    title: 'lists values that are no stage',
    received: others,
    allowed: RUNTIME_STAGES.join(', '),
  });
}

/** Per status, bodies the document shows (the schema must take them) and bodies without a field it requires (it must refuse them). */
const ERROR_BODIES: ReadonlyArray<[status: number, documented: Json[], incomplete: Json[]]> = [
  [
    404,
    [
      { statusCode: 404, error: 'Not Found' },
      { statusCode: 404, error: 'Not Found', message: 'Runtime not found' },
    ],
    [{ statusCode: 404 }, { error: 'Not Found' }],
  ],
  [
    429,
    [
      { statusCode: 429, error: 'Too Many Requests' },
      { statusCode: 429, error: 'Too Many Requests', message: 'Slow down', attributes: {} },
    ],
    [{ statusCode: 429 }, { error: 'Too Many Requests' }],
  ],
];

/** SPEC-7: the 404 and 429 schemas take the bodies the document shows and refuse bodies without a required field. */
export function errorBodySchemas({ spec, target, validator, verdict }: SpecContext): void {
  const op = target.runtimeOp;
  if (!verdict.check({ clause: 'SPEC-7', ok: !!op, title: `the spec has no GET ${RUNTIME_PATH}`, received: 'missing', allowed: 'the operation' })) return;
  for (const [status, documented, incomplete] of ERROR_BODIES) {
    const key = declaredResponseKey(op!, status);
    if (
      !verdict.check({
        clause: 'SPEC-7',
        ok: key === String(status),
        field: `responses.${status}`,
        title: 'is not declared',
        received: Object.keys(op!.op.responses ?? {}),
        allowed: String(status),
      })
    )
      continue;
    const media =
      Object.keys((op!.op.responses?.[String(status)] as OpenAPIV3.ResponseObject)?.content ?? {}).find((k) => /json/i.test(k)) ?? 'application/json';
    const pointer = canonicalPointer(spec.raw, [...pointerTokens(op!.pointer), 'responses', String(status), 'content', media, 'schema']);
    if (
      !verdict.check({
        clause: 'SPEC-7',
        ok: !!pointer,
        field: `responses.${status}`,
        title: 'declares no application/json schema',
        received: 'none',
        allowed: 'an error body schema',
      })
    )
      continue;
    for (const body of documented) {
      const problems = validator.validate(pointer!, body);
      verdict.check({
        clause: 'SPEC-7',
        ok: problems.length === 0,
        field: `responses.${status}`,
        title: 'has a schema that rejects a documented body',
        received: problems.map((p) => `${p.path} ${p.message}`),
        allowed: JSON.stringify(body),
      });
    }
    // statusCode and error are required by the document: a schema that accepts a body without them is too loose.
    for (const body of incomplete) {
      verdict.check({
        clause: 'SPEC-7',
        ok: validator.validate(pointer!, body).length > 0,
        field: `responses.${status}`,
        title: 'has a schema that accepts a body without a required field',
        received: body,
        allowed: 'statusCode and error required',
      });
    }
  }
}
