/**
 * SPEC: the target's machine-readable specification, read as it is served. A broken document fails
 * SPEC-1 and is still read as far as it can be, so every other clause is still tested; no document at
 * all (a 404, an HTML page) fails SPEC-1 and leaves nothing else to test (support/fixtures.ts).
 */
import type { OpenAPIV3 } from 'openapi-types';
import { RUNTIME_PATH, RUNTIME_STAGES } from '../support/document/facts';
import { clauses, test as base } from '../support/test';
import { parseSpecText } from '../support/spec/spec-source';
import { pointerTokens, Spec, templateKey, type SpecOperation } from '../support/spec/spec';
import { enumOf, jsonBodySchema, schemaProperties } from '../support/spec/target';
import { canonicalPointer, declaredResponseKey } from '../support/checks/conformance';
import { OPTIONAL_RUNTIME_FIELDS, REQUIRED_RUNTIME_FIELDS } from '../support/document/rules';
import type { Verdict } from '../support/checks/verdict';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every check of this file is about the document: stamped at place `spec` (the matrix's "tried at"). */
const test = base.extend({ verdict: [async ({ verdict }, use) => use(verdict.at({ place: 'spec' })), { scope: 'test', box: 'self' }] });

/** The schema of a response's JSON content, whatever its JSON media type. */
const jsonSchemaOf = (response: unknown): Json => {
  const content = (response as OpenAPIV3.ResponseObject | undefined)?.content ?? {};
  const key = Object.keys(content).find((k) => /json/i.test(k));
  return key ? content[key].schema : undefined;
};

const params = (op: SpecOperation | undefined) => (op?.op.parameters ?? []) as OpenAPIV3.ParameterObject[];

/**
 * An operation is found by its template with any trailing slash set aside; OpenAPI paths are exact, so
 * a slash more is another path, one the document does not name.
 */
function checkNoTrailingSlash(verdict: Verdict, clause: 'SPEC-4' | 'SPEC-5', path: string, documented: string): void {
  verdict
    .at({ valueClass: 'path' })
    .check({ clause, ok: !path.endsWith('/'), title: `the spec describes ${path}, with a trailing slash`, received: path, allowed: documented });
}

test.describe('machine-readable specification', () => {
  test('openapi.json is served and is a valid OpenAPI 3.x document', clauses('SPEC-1'), async ({ api, spec, verdict, config }) => {
    let ex = await api.call('GET', '/openapi.json', { headers: { authorization: null } });
    // Public on the real service; a target may want the credentials for it too.
    if (ex.status === 401 || ex.status === 403) ex = await api.call('GET', '/openapi.json');
    if (
      verdict.check({
        clause: 'SPEC-1',
        ok: ex.status === 200,
        title: 'GET /openapi.json did not answer 200',
        received: ex.status,
        allowed: '200 with the OpenAPI document',
        expectedStatus: 200,
        exchange: ex,
      })
    ) {
      verdict.check({
        clause: 'SPEC-1',
        ok: !ex.bom,
        title: 'openapi.json begins with a byte order mark, which RFC 8259 forbids in JSON sent over a network',
        received: 'U+FEFF first',
        allowed: 'the document from its first character',
        exchange: ex,
      });
      let served: Json;
      try {
        served = parseSpecText(ex.text, '/openapi.json');
      } catch (e) {
        verdict.fail({ clause: 'SPEC-1', title: 'openapi.json is neither JSON nor YAML', received: (e as Error).message, allowed: 'a JSON document' });
      }
      if (served) {
        const version = String(served.openapi ?? served.swagger ?? '');
        verdict.check({
          clause: 'SPEC-1',
          ok: /^3\.\d+\.\d+$/.test(version),
          title: 'openapi.json is not an OpenAPI 3.x document',
          received: version || 'no "openapi" field',
          allowed: 'openapi: 3.x.y',
        });
      }
    }
    if (spec.unserved) {
      // The answer just judged, when the suite reads its spec there too: said once.
      const saidAbove = ex.url === config.specUrl && verdict.failures.length > 0;
      if (!saidAbove)
        verdict.fail({ clause: 'SPEC-1', title: `the target serves no spec: ${spec.unserved}`, received: config.specUrl, allowed: 'an OpenAPI 3.x document' });
      return;
    }
    // The document the suite reads (SPEC_URL) must validate and resolve as a whole.
    for (const problem of spec.problems)
      verdict.fail({
        clause: 'SPEC-1',
        title: `the spec is not a valid OpenAPI document: ${problem}`,
        received: config.specUrl,
        allowed: 'a document that validates and whose $refs all resolve',
      });
  });

  test('the documented operations live under /v1/', clauses('SPEC-2'), async ({ spec, target, verdict }) => {
    const runtimeLike = spec.operations.filter((o) => o.method === 'get' && /\/runtimes\/\{[^}]+\}$/.test(o.path));
    verdict.check({
      clause: 'SPEC-2',
      ok: !!target.runtimeOp,
      title: `the spec has no GET ${RUNTIME_PATH}`,
      received: runtimeLike.map((o) => o.path).join(', ') || 'no runtime operation at all',
      allowed: RUNTIME_PATH,
    });
    const checkLike = spec.operations.filter((o) => /\/checks\/\{[^}]+\}$/.test(o.path) && o.method !== 'get');
    const update = target.updateOp ?? checkLike[0];
    if (update)
      verdict.check({
        clause: 'SPEC-2',
        ok: update.path.includes('/v1/'),
        title: 'the check update operation is not under /v1/',
        received: update.path,
        allowed: '/v1/... (behind any server prefix)',
      });
  });

  test('operations declare one security scheme, HTTP bearer', clauses('SPEC-3'), async ({ spec, target, verdict }) => {
    const schemes: Record<string, Json> = spec.deref?.components?.securitySchemes ?? {};
    for (const op of [target.runtimeOp, target.updateOp].filter(Boolean) as SpecOperation[]) {
      const requirements: Json[] = op.op.security ?? spec.deref?.security ?? [];
      const names = [...new Set(requirements.flatMap((r: Json) => Object.keys(r ?? {})))];
      const label = `${op.method.toUpperCase()} ${op.path}`;
      if (
        !verdict.check({
          clause: 'SPEC-3',
          ok: names.length === 1,
          title: `${label} does not declare exactly one security scheme`,
          received: names,
          allowed: 'one scheme: HTTP bearer',
        })
      )
        continue;
      const scheme = schemes[names[0]];
      verdict.check({
        clause: 'SPEC-3',
        ok: scheme?.type === 'http' && String(scheme?.scheme).toLowerCase() === 'bearer',
        title: `${label}: security scheme "${names[0]}" is not HTTP bearer`,
        received: scheme ?? 'undefined scheme',
        allowed: '{ type: http, scheme: bearer }',
      });
    }
  });

  test('the runtime operation is described', clauses('SPEC-4'), async ({ target, verdict, config }) => {
    const op = target.runtimeOp;
    if (!verdict.check({ clause: 'SPEC-4', ok: !!op, title: `the spec has no GET ${RUNTIME_PATH}`, received: 'missing', allowed: 'the operation' })) return;
    checkNoTrailingSlash(verdict, 'SPEC-4', op!.path, RUNTIME_PATH);
    const id = params(op).find((p) => p.in === 'path');
    verdict.at({ valueClass: 'path-parameter' }).check({
      clause: 'SPEC-4',
      ok: !!id && id.required === true && (id.schema as Json)?.type === 'string',
      title: 'the path parameter is not a required string',
      received: id ?? 'none',
      allowed: 'required string path parameter',
    });
    const header = params(op).find(
      (p) => p.in === 'header' && (config.accountHeader ? p.name.toLowerCase() === config.accountHeader.toLowerCase() : /-account$/i.test(p.name)),
    );
    verdict.at({ valueClass: 'account-header' }).check({
      clause: 'SPEC-4',
      ok: !!header,
      title: 'the account header parameter is not declared',
      received: params(op).map((p) => `${p.in}:${p.name}`),
      allowed: 'a header parameter named *-account',
    });
    for (const status of ['200', '404', '429']) {
      verdict.at({ valueClass: `response-${status}` }).check({
        clause: 'SPEC-4',
        ok: !!op!.op.responses?.[status],
        title: `response ${status} is not declared`,
        received: Object.keys(op!.op.responses ?? {}),
        allowed: '200, 404 and 429',
      });
    }
  });

  test('the check update operation is deprecated and described', clauses('SPEC-5'), async ({ spec, target, verdict }) => {
    const op = target.updateOp;
    const label = op ? `${op.method.toUpperCase()} ${op.path}` : '';
    if (
      !verdict.check({
        clause: 'SPEC-5',
        ok: !!op,
        title: 'no operation on /v1/checks/{id} has a body with frequencyOffset',
        received: spec.operations
          .filter((o) => /checks/.test(o.path))
          .map((o) => `${o.method} ${o.path}`)
          .slice(0, 10),
        allowed: 'the deprecated check update',
      })
    )
      return;
    checkNoTrailingSlash(verdict, 'SPEC-5', op!.path, '/v1/checks/{id}');
    verdict.at({ valueClass: 'deprecated' }).check({
      clause: 'SPEC-5',
      ok: op!.op.deprecated === true,
      title: `${label} is not marked deprecated`,
      received: op!.op.deprecated ?? 'not set',
      allowed: 'deprecated: true',
    });
    verdict.at({ valueClass: 'path-parameter' }).check({
      clause: 'SPEC-5',
      ok: params(op).some((p) => p.in === 'path'),
      title: `${label} has no path parameter`,
      received: params(op).map((p) => `${p.in}:${p.name}`),
      allowed: 'a path id',
    });
    const query = params(op).filter((p) => p.in === 'query');
    verdict.at({ valueClass: 'query-parameter' }).check({
      clause: 'SPEC-5',
      ok: query.some((p) => (p.schema as Json)?.type === 'boolean'),
      title: `${label} has no boolean query parameter`,
      received: query.map((p) => `${p.name}: ${(p.schema as Json)?.type}`),
      allowed: 'a boolean query parameter (auto-subscribe to alert channels)',
    });
    const props = schemaProperties(jsonBodySchema(op));
    for (const name of ['frequencyOffset', 'retryStrategy'])
      verdict.at({ valueClass: `body-${name}` }).check({
        clause: 'SPEC-5',
        ok: name in props,
        title: `${label}: the JSON body has no ${name}`,
        received: Object.keys(props).slice(0, 40),
        allowed: `a body schema with ${name}`,
      });
  });

  test('the Runtime schema', clauses('SPEC-6'), async ({ target, verdict }) => {
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
        title: `Runtime does not require ${name}`,
        received: required,
        allowed: REQUIRED_RUNTIME_FIELDS.join(', '),
      });
    // And no field the document marks "Required: no": the spec would promise what the document does not.
    for (const name of OPTIONAL_RUNTIME_FIELDS)
      verdict.at({ valueClass: `optional-${name}` }).check({
        clause: 'SPEC-6',
        ok: !required.includes(name),
        title: `Runtime requires ${name}, which the document marks optional`,
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
        title: `Runtime.stage does not list ${stage}`,
        received: actual,
        allowed: RUNTIME_STAGES.join(', '),
      });
    const others = actual.filter((v) => !(RUNTIME_STAGES as readonly string[]).includes(v));
    verdict.at({ valueClass: 'stage-other' }).check({
      clause: 'SPEC-6',
      ok: others.length === 0,
      title: 'Runtime.stage lists values that are no stage',
      received: others,
      allowed: RUNTIME_STAGES.join(', '),
    });
  });

  test("the runtime operation's 404 and 429 schemas match the documented error bodies", clauses('SPEC-7'), async ({ spec, target, validator, verdict }) => {
    const op = target.runtimeOp;
    if (!verdict.check({ clause: 'SPEC-7', ok: !!op, title: `the spec has no GET ${RUNTIME_PATH}`, received: 'missing', allowed: 'the operation' })) return;
    const cases: Array<[number, Json[], Json[]]> = [
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
    for (const [status, documented, incomplete] of cases) {
      const key = declaredResponseKey(op!, status);
      if (
        !verdict.check({
          clause: 'SPEC-7',
          ok: key === String(status),
          title: `response ${status} is not declared`,
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
          title: `response ${status} declares no application/json schema`,
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
          title: `the ${status} schema rejects a documented body`,
          received: problems.map((p) => `${p.path} ${p.message}`),
          allowed: JSON.stringify(body),
        });
      }
      // statusCode and error are required by the document: a schema that accepts a body without them is too loose.
      for (const body of incomplete) {
        verdict.check({
          clause: 'SPEC-7',
          ok: validator.validate(pointer!, body).length > 0,
          title: `the ${status} schema accepts a body that lacks a required field`,
          received: body,
          allowed: 'statusCode and error required',
        });
      }
    }
  });

  test('swagger.json is not the current specification', clauses('SPEC-8'), async ({ api, spec, verdict }) => {
    const swagger = await api.call('GET', '/swagger.json', { headers: { authorization: null } });
    if (swagger.status !== 200) {
      verdict.check({
        clause: 'SPEC-8',
        ok: swagger.status < 500,
        title: 'GET /swagger.json answered a server error',
        received: swagger.status,
        allowed: 'not served (404/410) or an older document',
      });
      return;
    }
    const openapi = await api.call('GET', '/openapi.json', { headers: { authorization: null } });
    const swaggerDate = Date.parse(swagger.headers['last-modified'] ?? '');
    const openapiDate = Date.parse(openapi.headers['last-modified'] ?? '');
    if (!Number.isNaN(swaggerDate) && !Number.isNaN(openapiDate)) {
      verdict.check({
        clause: 'SPEC-8',
        ok: swaggerDate <= openapiDate,
        title: 'swagger.json is newer than openapi.json (Last-Modified)',
        received: swagger.headers['last-modified'],
        allowed: `not after ${openapi.headers['last-modified']}`,
      });
    }
    let old: Json;
    try {
      old = parseSpecText(swagger.text, '/swagger.json');
    } catch {
      return verdict.pass('SPEC-8'); // not JSON: nothing in it can be newer
    }
    // Only its operations' methods and paths are compared: it needs neither the check nor dereferencing.
    const plain = old && typeof old === 'object' && !Array.isArray(old) ? old : {};
    const older = new Spec(plain, plain, [], '/swagger.json');
    // Either document may put a server prefix before the paths: an operation matches on the shared tail.
    const newer = older.operations.filter(
      (o) => !spec.find(o.method, o.path) && !spec.operations.some((c) => c.method === o.method && templateKey(o.path).endsWith(templateKey(c.path))),
    );
    // An older document may list operations removed since: a hint, not proof that it is newer.
    if (newer.length)
      verdict.note(
        'spec-finding',
        `swagger.json declares ${newer.length} operation(s) that openapi.json lacks: ${newer
          .slice(0, 5)
          .map((o) => `${o.method.toUpperCase()} ${o.path}`)
          .join(', ')}`,
      );
    const versions = [String(old?.info?.version ?? ''), String(spec.raw?.info?.version ?? '')];
    const newerVersion = versions.every((v) => /^\d+(\.\d+)*$/.test(v)) && versions[0].localeCompare(versions[1], undefined, { numeric: true }) > 0;
    verdict.check({
      clause: 'SPEC-8',
      ok: !newerVersion,
      title: 'swagger.json has a newer info.version than openapi.json',
      received: versions[0],
      allowed: `not after ${versions[1]}`,
    });
  });
});
