/**
 * The SPEC faults: what /openapi.json and /swagger.json serve, bent on its way out (SPEC-1..9). Each
 * is the mistake a service's own document could make; the comment says how it came about. Applied in
 * this order: the document's edits, the cuts and additions of the generated rows, the paths renamed
 * (after the cuts, whose pointers name the documented paths), then the text as sent.
 */
import { gzipSync } from 'node:zlib';
import { OPENAPI_LAST_MODIFIED } from '../../../reference/service/spec/openapi-document';
import { all, notFound, servedJson, servedText, type Json, type KindFault, type NamedFault, type OutsideFault } from './seams';
import { TEST_FILES } from '../../../support/run/test-files';

const OPENAPI = ['/openapi.json'];
const SWAGGER = ['/swagger.json'];
const DAY_MS = 86_400_000;

const runtimeOp = (doc: Json) => doc.paths['/v1/runtimes/{id}'].get;
const updateOp = (doc: Json) => doc.paths['/v1/checks/{id}'].put;
const schemas = (doc: Json) => doc.components.schemas;
/** Every path of the document renamed. */
const renamePaths = (rename: (path: string) => string) => (doc: Json) => {
  doc.paths = Object.fromEntries(Object.entries(doc.paths).map(([p, item]) => [rename(p), item]));
};
const openapi = (edit: (doc: Json) => void) => servedJson(OPENAPI, edit);

/** The document compressed for clients that accept gzip, its Content-Encoding forgotten: the bytes arrive labelled JSON. */
const gzippedUnlabelled: NamedFault['apply'] = (app) => {
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.routeOptions.url !== '/openapi.json' || typeof payload !== 'string' || !/gzip/i.test(String(req.headers['accept-encoding'] ?? ''))) return payload;
    return gzipSync(payload);
  });
};

const EDITS: NamedFault[] = [
  // A compression step added in front of the document that sets no Content-Encoding.
  {
    name: 'spec-gzip-unlabelled',
    // Found because the suite asks as real clients do (Accept-Encoding: gzip, deflate, br).
    what: 'openapi.json is gzipped for clients that accept gzip, without a Content-Encoding header',
    clauses: ['SPEC-1'],
    apply: gzippedUnlabelled,
  },
  {
    name: 'spec-invalid',
    what: 'served document is not valid OpenAPI (a response lacks its description)',
    clauses: ['SPEC-1'],
    apply: openapi((d) => delete runtimeOp(d).responses['200'].description),
  },
  {
    name: 'spec-no-bearer',
    what: 'security scheme is an apiKey in a header instead of HTTP bearer',
    clauses: ['SPEC-3'],
    reach: ['spec#security'],
    apply: openapi((d) => {
      d.components.securitySchemes = { ApiKey: { type: 'apiKey', in: 'header', name: 'Authorization' } };
      d.security = [{ ApiKey: [] }];
    }),
  },
  {
    name: 'spec-runtime-no-404',
    what: 'runtime operation does not declare its 404 response',
    clauses: ['SPEC-4', 'SPEC-7'],
    reach: ['spec#runtime-operation'],
    apply: openapi((d) => delete runtimeOp(d).responses['404']),
  },
  {
    name: 'spec-not-deprecated',
    what: 'check update operation is not marked deprecated',
    clauses: ['SPEC-5'],
    reach: ['spec#update-operation'],
    apply: openapi((d) => delete updateOp(d).deprecated),
  },
  {
    name: 'spec-runtime-optional-node',
    what: 'Runtime schema does not require nodeJsVersion',
    clauses: ['SPEC-6'],
    reach: ['spec#runtime-schema'],
    apply: openapi((d) => (schemas(d).Runtime.required = schemas(d).Runtime.required.filter((r: string) => r !== 'nodeJsVersion'))),
  },
  {
    name: 'spec-stage-extra',
    what: 'RuntimeStage enum lists a seventh value, GA',
    list: 'generated',
    clauses: ['SPEC-6'],
    reach: ['spec#runtime-schema'],
    apply: openapi((d) => schemas(d).RuntimeStage.enum.push('GA')),
  },
  {
    name: 'spec-stage-enum',
    what: 'RuntimeStage enum lacks STABLE',
    clauses: ['SPEC-6'],
    reach: ['spec#runtime-schema'],
    apply: openapi((d) => (schemas(d).RuntimeStage.enum = schemas(d).RuntimeStage.enum.filter((s: string) => s !== 'STABLE'))),
  },
  {
    name: 'spec-429-schema',
    what: '429 schema has error enum "Rate limit exceeded"',
    clauses: ['SPEC-7'],
    reach: ['spec#runtime-operation'],
    apply: openapi((d) => (schemas(d).TooManyRequestsError.properties.error.enum = ['Rate limit exceeded'])),
  },
  // The error responses' media type changed to RFC 9457's in the document, not in the service.
  {
    name: 'spec-404-problem-json',
    // The spec's media type of a response, not only its schema: SPEC-9 wherever a 404 is provoked.
    what: 'the 404 responses are declared as application/problem+json (the service sends application/json)',
    files: [TEST_FILES.spec, TEST_FILES.runtime],
    clauses: ['SPEC-9'],
    apply: openapi((d) => {
      for (const op of [runtimeOp(d), d.paths['/v1/checks/{id}'].get, updateOp(d)]) {
        const content = op.responses['404'].content;
        op.responses['404'].content = { 'application/problem+json': content['application/json'] };
      }
    }),
  },
  // The update operation kept the scheme of the old dashboard endpoint.
  {
    name: 'ind-spec-update-basic-auth',
    what: 'spec: the check update operation overrides security with an HTTP basic scheme',
    list: 'independent',
    clauses: ['SPEC-3'],
    reach: ['spec#security'],
    apply: openapi((d) => {
      d.components.securitySchemes.Basic = { type: 'http', scheme: 'basic' };
      updateOp(d).security = [{ Basic: [] }];
    }),
  },
  // The spec generated from the route's own querystring schema.
  {
    name: 'ind-spec-query-string',
    what: 'spec: the autoAssignAlerts query parameter is typed string (enum "true"/"false"), not boolean',
    list: 'independent',
    clauses: ['SPEC-5'],
    reach: ['spec#update-operation'],
    apply: openapi((d) => (updateOp(d).parameters.find((p: Json) => p.in === 'query').schema = { type: 'string', enum: ['true', 'false'], default: 'true' })),
  },
  // The runtime operation's 429 copied from its 401 line.
  {
    name: 'ind6-spec-429-apierror',
    what: 'spec: the 429 of GET /v1/runtimes/{id} refers to the generic ApiError schema (error not fixed, message required)',
    list: 'independent-6',
    clauses: ['SPEC-7'],
    apply: openapi((d) => (runtimeOp(d).responses['429'].content['application/json'].schema = { $ref: '#/components/schemas/ApiError' })),
  },
  // The parameter's type inferred from an example id such as 2025.04.
  {
    name: 'ind6-spec-id-number',
    what: 'spec: the id path parameter of GET /v1/runtimes/{id} is typed number (inferred from the example 2025.04)',
    list: 'independent-6',
    clauses: ['SPEC-4'],
    apply: openapi((d) => (runtimeOp(d).parameters.find((p: Json) => p.in === 'path').schema = { type: 'number', example: 2025.04 })),
  },
  // "A date" written as the OpenAPI date format, which is ISO 8601 (YYYY-MM-DD).
  {
    name: 'ind6-spec-eol-format-date',
    what: 'spec: Runtime.runtimeEndOfLife declared format "date" (ISO), while the service writes MM/DD/YYYY',
    list: 'independent-6',
    files: [TEST_FILES.runtime, TEST_FILES.spec],
    clauses: ['SPEC-9'],
    apply: openapi((d) => (schemas(d).Runtime.properties.runtimeEndOfLife.format = 'date')),
  },
  // The runtime catalogue taken for public data, its operation marked unauthenticated.
  {
    name: 'ind7-spec-runtime-security-empty',
    what: 'spec: GET /v1/runtimes/{id} declares security [] (public), though the service asks for the bearer key',
    list: 'independent-7',
    clauses: ['SPEC-3'],
    apply: openapi((d) => (runtimeOp(d).security = [])),
  },
  // "String or null" written the OpenAPI 3.1 way in a 3.0.3 document.
  {
    name: 'ind7-spec-nullable-type-array',
    what: 'spec: CheckUpdate.description typed ["string", "null"] (3.1 style) in an OpenAPI 3.0.3 document',
    list: 'independent-7',
    clauses: ['SPEC-1'],
    apply: openapi((d) => {
      const description = schemas(d).CheckUpdate.properties.description;
      delete description.nullable;
      description.type = ['string', 'null'];
    }),
  },
  // "Content not described" typed as an opaque string.
  {
    name: 'ind7-spec-429-attributes-string',
    what: 'spec: TooManyRequestsError.attributes typed string ("content not described"), while 429s carry an object',
    list: 'independent-7',
    files: [TEST_FILES.spec, TEST_FILES.burst, TEST_FILES.rateLimit],
    clauses: ['SPEC-7', 'SPEC-9'],
    apply: openapi((d) => (schemas(d).TooManyRequestsError.properties.attributes = { type: 'string', description: 'Content not described.' })),
  },
  // The body schema generated from the model, where the offset is a snake_case column.
  {
    name: 'ind7-spec-offset-snake-case',
    what: 'spec: the CheckUpdate body schema names the offset frequency_offset (its database column), not frequencyOffset',
    list: 'independent-7',
    clauses: ['SPEC-5'],
    apply: openapi((d) => {
      const props = schemas(d).CheckUpdate.properties;
      props.frequency_offset = props.frequencyOffset;
      delete props.frequencyOffset;
    }),
  },
  // The enum written by hand in the JSON file, its value quoted like the neighbouring strings.
  {
    name: 'ind8-spec-404-status-enum-quoted',
    what: 'spec: NotFoundError.statusCode is a number whose enum is the string "404": no 404 body can match it',
    list: 'independent-8',
    files: [TEST_FILES.spec, TEST_FILES.runtime, TEST_FILES.errors],
    clauses: ['SPEC-7', 'SPEC-9'],
    apply: openapi((d) => (schemas(d).NotFoundError.properties.statusCode.enum = ['404'])),
  },
  // The schema generated from the model, where stage is a NOT NULL column.
  {
    name: 'ind8-spec-runtime-stage-required',
    what: 'spec: Runtime.required lists stage (a NOT NULL column of the model), which the document makes optional',
    list: 'independent-8',
    clauses: ['SPEC-6'],
    apply: openapi((d) => schemas(d).Runtime.required.push('stage')),
  },
  // The path copied from a router that registers collections with a trailing slash.
  {
    name: 'ind8-spec-runtime-path-trailing-slash',
    what: 'spec: the runtime operation is described at /v1/runtimes/{id}/ (trailing slash), a path the service does not serve',
    list: 'independent-8',
    clauses: ['SPEC-4'],
    apply: openapi(renamePaths((p) => (p === '/v1/runtimes/{id}' ? '/v1/runtimes/{id}/' : p))),
  },
  // The parameter block copied from a query parameter, its `in` left as it was (the runtime operation's one header parameter is the account).
  {
    name: 'ind9-spec-account-param-in-query',
    what: 'spec: the account parameter of GET /v1/runtimes/{id} is declared in: query (copied from a query parameter block), not in: header',
    list: 'independent-9',
    clauses: ['SPEC-4'],
    apply: openapi((d) => {
      for (const p of runtimeOp(d).parameters) if (p.in === 'header') p.in = 'query';
    }),
  },
  // The error schema closed against unknown properties, and message (optional) forgotten in its list.
  {
    name: 'ind9-spec-404-closed-no-message',
    what: 'spec: NotFoundError is closed (additionalProperties false) and lists no message, so every 404 body with a message fails it',
    list: 'independent-9',
    files: [TEST_FILES.spec, TEST_FILES.runtime, TEST_FILES.errors],
    clauses: ['SPEC-7', 'SPEC-9'],
    apply: openapi((d) => {
      delete schemas(d).NotFoundError.properties.message;
      schemas(d).NotFoundError.additionalProperties = false;
    }),
  },
  // The scheme renamed in components, the document's security requirement left naming the old one.
  {
    name: 'ind9-spec-security-name-mismatch',
    what: 'spec: the bearer scheme is renamed bearerAuth in components while the security requirement still names Bearer (no such scheme)',
    list: 'independent-9',
    clauses: ['SPEC-3'],
    apply: openapi((d) => {
      d.components.securitySchemes = Object.fromEntries(Object.entries(d.components.securitySchemes).map(([k, v]) => [k === 'Bearer' ? 'bearerAuth' : k, v]));
    }),
  },
  // swagger.json touched after openapi.json: an operation openapi.json lacks, and the later date.
  {
    name: 'swagger-newer',
    what: 'swagger.json declares an extra operation and is newer than openapi.json',
    clauses: ['SPEC-8'],
    reach: ['spec#swagger'],
    apply: all(
      servedJson(SWAGGER, (d) => {
        d.paths['/v1/checks'] = { post: { summary: 'Create a check', operationId: 'postV1Checks', responses: { 201: { description: 'Created' } } } };
      }),
      servedText(SWAGGER, (text, reply) => {
        reply.header('last-modified', new Date(OPENAPI_LAST_MODIFIED.getTime() + DAY_MS).toUTCString());
        return text;
      }),
    ),
  },
];

/** JSON pointer tokens (RFC 6901), and the node a pointer's tokens lead to. */
const tokens = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
const nodeAt = (doc: Json, parts: string[]): Json => parts.reduce<Json>((n, k) => (n && typeof n === 'object' ? n[k] : undefined), doc);

const GENERATED: KindFault[] = [
  /**
   * spec-drop: the nodes at these pointers cut out. All are found before any is cut, and array elements
   * are cut from the highest index down, so that two drops in one array name what they meant. A pointer
   * that names nothing changes nothing.
   */
  {
    kind: 'spec-drop',
    clauses: ['SPEC-4', 'SPEC-5', 'SPEC-6'],
    apply: (rows) =>
      openapi((d) => {
        const found = rows.flatMap(({ pointer }) => {
          const parts = tokens(pointer);
          const key = parts.pop()!;
          const parent = nodeAt(d, parts);
          return parent && typeof parent === 'object' && key in parent ? [{ parent, key }] : [];
        });
        for (const f of found) if (!Array.isArray(f.parent)) delete f.parent[f.key];
        const cuts = found.filter((f) => Array.isArray(f.parent)).sort((a, b) => Number(b.key) - Number(a.key));
        for (const f of cuts) f.parent.splice(Number(f.key), 1);
      }),
  },
  /** spec-add: each value appended to the array its pointer names (nothing where there is none). */
  {
    kind: 'spec-add',
    clauses: ['SPEC-6'],
    apply: (rows) =>
      openapi((d) => {
        for (const { pointer, value } of rows) {
          const node = nodeAt(d, tokens(pointer));
          if (Array.isArray(node)) node.push(value);
        }
      }),
  },
];

/** One byte order mark, however many faults put it there. */
const withBom = (text: string) => (text.startsWith('\uFEFF') ? text : `\uFEFF${text}`);

const PATHS_AND_TEXT: NamedFault[] = [
  {
    name: 'spec-trailing-slash',
    what: 'spec lists every path with a trailing slash (service unchanged)',
    clauses: ['SPEC-4', 'SPEC-5'],
    apply: openapi(renamePaths((p) => `${p}/`)),
  },
  // Both documents, kept in step, so that the fault breaks SPEC-2 only.
  {
    name: 'spec-unversioned',
    what: 'spec lists the paths without the /v1 prefix (service unchanged)',
    clauses: ['SPEC-2'],
    apply: servedJson(
      [...OPENAPI, ...SWAGGER],
      renamePaths((p) => p.replace(/^\/v1/, '')),
    ),
  },
  { name: 'spec-bom', what: 'openapi.json is served with a UTF-8 byte order mark before the JSON', clauses: ['SPEC-1'], apply: servedText(OPENAPI, withBom) },
  // The file as an editor saved it, a byte order mark in front of the JSON.
  {
    name: 'ind9-spec-utf8-bom',
    what: 'spec: /openapi.json is served with a UTF-8 byte order mark before the JSON (the file saved by an editor that adds one)',
    list: 'independent-9',
    clauses: ['SPEC-1'],
    apply: servedText(OPENAPI, withBom),
  },
  { name: 'spec-missing', what: '/openapi.json answers 404', clauses: ['SPEC-1'], apply: notFound(OPENAPI) },
];

export const SPEC_FAULTS: OutsideFault[] = [...EDITS, ...GENERATED, ...PATHS_AND_TEXT];
