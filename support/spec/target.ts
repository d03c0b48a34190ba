/** The document's operations in the target's spec, and the account header's name. */
import type { OpenAPIV3 } from 'openapi-types';
import type { Config } from '../run/config';
import { DEFAULT_ACCOUNT_HEADER, RUNTIME_PATH } from '../document/facts';
import { PLACE } from '../document/places';
import type { Spec, SpecOperation } from './spec';
import { templateKey } from './spec';

/** What the suite calls on the target, as resolveTarget finds it in the spec. */
export type Target = ReturnType<typeof resolveTarget>;

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The schema of a request's or response's JSON content (any JSON media type). */
export function jsonSchemaOf(content: Record<string, OpenAPIV3.MediaTypeObject> | undefined): Json {
  const key = Object.keys(content ?? {}).find((k) => /json/i.test(k));
  return key ? content![key]?.schema : undefined;
}

export const jsonBodySchema = (op: SpecOperation | undefined): Json => jsonSchemaOf((op?.op.requestBody as OpenAPIV3.RequestBodyObject | undefined)?.content);

/** Whether the walkers below look into a node: a schema object, not past a depth a circular schema would exceed. */
const walked = (schema: Json, depth: number) => !!schema && typeof schema === 'object' && depth <= 5;
const parts = (schema: Json, ...keys: string[]): Json[] => keys.flatMap((k) => schema[k] ?? []);

/** Properties of a schema, looking through allOf / oneOf / anyOf. */
export function schemaProperties(schema: Json, depth = 0): Record<string, Json> {
  if (!walked(schema, depth)) return {};
  const own = schema.properties && typeof schema.properties === 'object' ? schema.properties : {};
  return Object.assign({}, ...parts(schema, 'allOf', 'oneOf', 'anyOf').map((p) => schemaProperties(p, depth + 1)), own);
}

/** Whether a schema admits a JSON type (type, type lists of 3.1, and anyOf / oneOf / allOf parts). */
export function admits(schema: Json, type: string, depth = 0): boolean {
  if (!walked(schema, depth)) return false;
  const types = [schema.type].flat();
  return (
    types.includes(type) || (type === 'number' && types.includes('integer')) || parts(schema, 'anyOf', 'oneOf', 'allOf').some((p) => admits(p, type, depth + 1))
  );
}

/** Whether a schema declares null: 3.0 `nullable`, a 3.1 type list, a null branch or a null in its enum. */
export function admitsNull(schema: Json, depth = 0): boolean {
  if (!walked(schema, depth)) return false;
  if (schema.nullable === true || admits(schema, 'null') || (Array.isArray(schema.enum) && schema.enum.includes(null))) return true;
  return parts(schema, 'anyOf', 'oneOf').some((p) => admitsNull(p, depth + 1));
}

/** Enum values of a schema (nulls left out), looking through items, anyOf, oneOf and allOf. */
export function enumOf(schema: Json, depth = 0): unknown[] | undefined {
  if (!walked(schema, depth)) return undefined;
  if (Array.isArray(schema.enum)) return schema.enum.filter((v: unknown) => v !== null);
  return [schema.items, ...parts(schema, 'anyOf', 'oneOf', 'allOf')].reduce<unknown[] | undefined>((found, p) => found ?? enumOf(p, depth + 1), undefined);
}

export function findUpdateOp(spec: Spec): SpecOperation | undefined {
  const candidates = spec.operations.filter(
    (o) => o.method !== 'get' && /\/checks\/\{[^}]+\}\/?$/.test(o.path) && 'frequencyOffset' in schemaProperties(jsonBodySchema(o)),
  );
  return candidates.find((o) => o.op.deprecated === true) ?? candidates.find((o) => /deprecated/i.test(`${o.op.summary} ${o.op.description}`)) ?? candidates[0];
}

export function resolveTarget(spec: Spec, config: Config) {
  const runtimeOp = spec.find('get', RUNTIME_PATH);
  /** The deprecated operation on the check path whose body has frequencyOffset. */
  const updateOp = findUpdateOp(spec);
  /** GET of the same path, to read a check back. */
  const readCheckOp = updateOp && spec.operations.find((o) => o.method === 'get' && templateKey(o.path) === templateKey(updateOp.path));
  const relative = (op: SpecOperation | undefined) => op && relativeTo(config.baseUrl, op.path);
  const accountHeader = config.accountHeader ?? spec.accountHeaderOf(runtimeOp) ?? DEFAULT_ACCOUNT_HEADER;
  return {
    /** Collections of the resources the suite reads (`GET /v1/runtimes`), when the spec has them and they need no parameter the suite cannot give. */
    collectionGets: collectionGetsOf(spec, [runtimeOp, readCheckOp], accountHeader),
    runtimeOp,
    updateOp,
    readCheckOp,
    /** Paths to call, relative to BASE_URL (templates with {id}): from the spec where it has them. */
    runtimePath: relative(runtimeOp) ?? RUNTIME_PATH,
    updatePath: relative(updateOp),
    readPath: relative(readCheckOp),
    /** The update's method as the spec declares it (the document does not give it). */
    updateMethod: (updateOp?.method ?? 'put').toUpperCase(),
    accountHeader,
  };
}

/** A spec path as called on BASE_URL: a server prefix BASE_URL already ends in is not sent twice. */
export function relativeTo(baseUrl: string, fullPath: string): string {
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return basePath && fullPath.startsWith(`${basePath}/`) ? fullPath.slice(basePath.length) : fullPath;
}

/** `/v1/checks/{id}` with the id filled in, encoded. */
export const fillPath = (template: string, value: string) => template.replace(/\{[^}]+\}/, encodeURIComponent(value));

/** The parent collection's GET of each operation given, if the spec has it and it needs no parameter the suite lacks. */
function collectionGetsOf(spec: Spec, ops: Array<SpecOperation | undefined>, accountHeader: string): SpecOperation[] {
  const out: SpecOperation[] = [];
  for (const op of ops) {
    if (!op) continue;
    const parent = templateKey(op.path).replace(/\/\{\}$/, '');
    if (parent === templateKey(op.path)) continue;
    const found = spec.operations.find((o) => o.method === 'get' && templateKey(o.path) === parent && !needsParameters(o, accountHeader));
    if (found && !out.includes(found)) out.push(found);
  }
  return out;
}

/** Whether an operation requires a parameter other than the account header (a path, a query, …). */
function needsParameters(op: SpecOperation, accountHeader: string): boolean {
  const params = (op.op.parameters ?? []) as OpenAPIV3.ParameterObject[];
  return /\{[^}]+\}/.test(op.path) || params.some((p) => p?.required && !(p.in === 'header' && p.name.toLowerCase() === accountHeader.toLowerCase()));
}

/** The place (route role) of an operation of the target, as checks are stamped with it. */
export function placeOf(target: Target, op: SpecOperation | undefined, method = op?.method ?? 'get'): string | undefined {
  if (!op) return undefined;
  if (op === target.runtimeOp) return PLACE.runtime;
  if (op === target.readCheckOp) return PLACE.checkRead;
  if (op === target.updateOp) return PLACE.checkUpdate;
  // Any other operation: by method and path template.
  return `${method.toUpperCase()} ${op.path}`;
}
