/**
 * RT-5, RT-6 and RT-8 judge an optional Runtime field "when present". A field sent as null is absent
 * only where the target's own spec declares it nullable (as CU-2 takes a null description where the
 * spec does): elsewhere null is a value of no type the document gives (description is a string), read
 * as ERR-1 reads the 404's optional message.
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
