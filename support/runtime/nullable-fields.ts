/**
 * RT-5, RT-6 and RT-8 judge an optional field "when present": a null is absent only where the target's
 * spec declares the field nullable; elsewhere it is a value of no type the document gives.
 */
import type { OpenAPIV3 } from 'openapi-types';
import { declaredResponseKey } from '../checks/conformance';
import type { SpecOperation } from '../spec/spec';
import { admitsNull, jsonSchemaOf, schemaProperties } from '../spec/target';

/** Whether the schema of the operation's 200 answer declares `field` nullable. */
export function declaredNullable(op: SpecOperation | undefined, field: string): boolean {
  const key = op && declaredResponseKey(op, 200);
  const content = key ? (op!.op.responses?.[key] as OpenAPIV3.ResponseObject | undefined)?.content : undefined;
  return admitsNull(schemaProperties(jsonSchemaOf(content))[field]);
}
