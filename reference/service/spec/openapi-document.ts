// The served OpenAPI document: specs/openapi.json (written by hand) with the configured account
// header name substituted, then bent by the SPEC-* faults. Built once per service instance.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Faults } from '../../faults';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const SPEC_FILE = resolve(__dirname, '../../../specs/openapi.json');
export const DOCUMENTED_ACCOUNT_HEADER = 'X-Service-Account';
// Last-Modified of the documents; swagger.json is older unless swagger-newer says otherwise.
export const OPENAPI_LAST_MODIFIED = new Date('2026-08-18T09:00:00Z');
export const SWAGGER_LAST_MODIFIED = new Date('2021-03-01T09:00:00Z');

const operations = (doc: Json): Json[] => Object.values(doc.paths as Json).flatMap((item: Json) => Object.values(item) as Json[]);

export function buildOpenApi(faults: Faults, accountHeader: string): Json {
  const doc: Json = JSON.parse(readFileSync(SPEC_FILE, 'utf8'));
  for (const op of operations(doc)) {
    for (const p of op.parameters ?? []) if (p.in === 'header' && p.name === DOCUMENTED_ACCOUNT_HEADER) p.name = accountHeader;
  }
  const schemas = doc.components.schemas;
  const runtimeOp = doc.paths['/v1/runtimes/{id}'].get;
  if (faults.has('spec-invalid')) delete runtimeOp.responses['200'].description;
  if (faults.has('spec-no-bearer')) {
    doc.components.securitySchemes = { ApiKey: { type: 'apiKey', in: 'header', name: 'Authorization' } };
    doc.security = [{ ApiKey: [] }];
  }
  if (faults.has('spec-runtime-no-404')) delete runtimeOp.responses['404'];
  if (faults.has('spec-not-deprecated')) delete doc.paths['/v1/checks/{id}'].put.deprecated;
  if (faults.has('spec-runtime-optional-node')) {
    schemas.Runtime.required = schemas.Runtime.required.filter((r: string) => r !== 'nodeJsVersion');
  }
  if (faults.has('spec-stage-extra')) schemas.RuntimeStage.enum = [...schemas.RuntimeStage.enum, 'GA'];
  if (faults.has('spec-stage-enum')) schemas.RuntimeStage.enum = schemas.RuntimeStage.enum.filter((s: string) => s !== 'STABLE');
  if (faults.has('spec-429-schema')) schemas.TooManyRequestsError.properties.error.enum = ['Rate limit exceeded'];
  // ind-spec-update-basic-auth: the update operation kept the scheme of the old dashboard endpoint.
  if (faults.has('ind-spec-update-basic-auth')) {
    doc.components.securitySchemes.Basic = { type: 'http', scheme: 'basic' };
    doc.paths['/v1/checks/{id}'].put.security = [{ Basic: [] }];
  }
  // ind-spec-query-string: the spec was generated from the route's own querystring schema.
  if (faults.has('ind-spec-query-string')) {
    const q = doc.paths['/v1/checks/{id}'].put.parameters.find((p: Json) => p.in === 'query');
    q.schema = { type: 'string', enum: ['true', 'false'], default: 'true' };
  }
  // ind6-spec-429-apierror: the runtime operation's 429 copied from its 401 line.
  if (faults.has('ind6-spec-429-apierror')) runtimeOp.responses['429'].content['application/json'].schema = { $ref: '#/components/schemas/ApiError' };
  // ind6-spec-id-number: the parameter's type inferred from an example id such as 2025.04.
  if (faults.has('ind6-spec-id-number')) runtimeOp.parameters.find((p: Json) => p.in === 'path').schema = { type: 'number', example: 2025.04 };
  // ind6-spec-eol-format-date: "a date" written as the OpenAPI date format, which is ISO 8601 (YYYY-MM-DD).
  if (faults.has('ind6-spec-eol-format-date')) schemas.Runtime.properties.runtimeEndOfLife.format = 'date';
  // ind7-spec-runtime-security-empty: the runtime catalogue taken for public data, its operation marked unauthenticated.
  if (faults.has('ind7-spec-runtime-security-empty')) runtimeOp.security = [];
  // ind7-spec-nullable-type-array: "string or null" written the OpenAPI 3.1 way in a 3.0.3 document.
  if (faults.has('ind7-spec-nullable-type-array')) {
    const description = schemas.CheckUpdate.properties.description;
    delete description.nullable;
    description.type = ['string', 'null'];
  }
  // ind7-spec-429-attributes-string: "content not described" typed as an opaque string.
  if (faults.has('ind7-spec-429-attributes-string'))
    schemas.TooManyRequestsError.properties.attributes = { type: 'string', description: 'Content not described.' };
  // ind7-spec-offset-snake-case: the body schema generated from the model, where the offset is a snake_case column.
  if (faults.has('ind7-spec-offset-snake-case')) {
    const props = schemas.CheckUpdate.properties;
    props.frequency_offset = props.frequencyOffset;
    delete props.frequencyOffset;
  }
  // ind8-spec-404-status-enum-quoted: the enum written by hand in the JSON file, its value quoted like the neighbouring strings.
  if (faults.has('ind8-spec-404-status-enum-quoted')) schemas.NotFoundError.properties.statusCode.enum = ['404'];
  // ind8-spec-runtime-stage-required: the schema generated from the model, where stage is a NOT NULL column.
  if (faults.has('ind8-spec-runtime-stage-required')) schemas.Runtime.required = [...schemas.Runtime.required, 'stage'];
  // ind8-spec-runtime-path-trailing-slash: the path copied from a router that registers collections with a trailing slash.
  if (faults.has('ind8-spec-runtime-path-trailing-slash')) {
    doc.paths = Object.fromEntries(Object.entries(doc.paths).map(([p, item]) => [p === '/v1/runtimes/{id}' ? '/v1/runtimes/{id}/' : p, item]));
  }
  // ind9-spec-account-param-in-query: the parameter block copied from a query parameter, its `in` left as it was.
  if (faults.has('ind9-spec-account-param-in-query')) for (const p of runtimeOp.parameters) if (p.name === accountHeader && p.in === 'header') p.in = 'query';
  // ind9-spec-404-closed-no-message: the error schema closed against unknown properties, and message (optional) forgotten in its list.
  if (faults.has('ind9-spec-404-closed-no-message')) {
    const nf = schemas.NotFoundError;
    delete nf.properties.message;
    nf.additionalProperties = false;
  }
  // ind9-spec-security-name-mismatch: the scheme renamed in components, the document's security requirement left naming the old one.
  if (faults.has('ind9-spec-security-name-mismatch')) {
    doc.components.securitySchemes = Object.fromEntries(Object.entries(doc.components.securitySchemes).map(([k, v]) => [k === 'Bearer' ? 'bearerAuth' : k, v]));
  }
  dropNodes(doc, faults.specDrops());
  appendToArrays(doc, faults.specAdditions());
  if (faults.has('spec-trailing-slash')) doc.paths = Object.fromEntries(Object.entries(doc.paths).map(([p, item]) => [`${p}/`, item]));
  if (faults.has('spec-unversioned')) {
    doc.paths = Object.fromEntries(Object.entries(doc.paths).map(([p, item]) => [p.replace(/^\/v1/, ''), item]));
  }
  return doc;
}

/**
 * spec-drop: the nodes at these JSON pointers cut out. All are found before any is cut, and array
 * elements are cut from the highest index down, so that two drops in one array name what they meant.
 * A pointer that names nothing changes nothing.
 */
const token = (t: string) => t.replace(/~1/g, '/').replace(/~0/g, '~');
const nodeAt = (doc: Json, parts: string[]): Json | undefined => parts.reduce<Json | undefined>((n, k) => (n && typeof n === 'object' ? n[k] : undefined), doc);

function appendToArrays(doc: Json, additions: Array<{ pointer: string; value: unknown }>): void {
  for (const { pointer, value } of additions) {
    const node = nodeAt(doc, pointer.split('/').slice(1).map(token));
    if (Array.isArray(node)) node.push(value);
  }
}

function dropNodes(doc: Json, pointers: string[]): void {
  const found = pointers.flatMap((p) => {
    const parts = p.split('/').slice(1).map(token);
    const key = parts.pop()!;
    const parent = nodeAt(doc, parts);
    return parent && typeof parent === 'object' && key in parent ? [{ parent, key }] : [];
  });
  const cuts = found.filter((f) => Array.isArray(f.parent)).sort((a, b) => Number(b.key) - Number(a.key));
  for (const f of found) if (!Array.isArray(f.parent)) delete f.parent[f.key];
  for (const f of cuts) (f.parent as unknown[]).splice(Number(f.key), 1);
}
