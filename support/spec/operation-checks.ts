/**
 * SPEC checks of the operations the document declares: where they live (SPEC-2), how they authenticate
 * (SPEC-3), and what the runtime operation (SPEC-4) and the check update (SPEC-5) take and answer.
 */
import type { OpenAPIV3 } from 'openapi-types';
import { RUNTIME_PATH } from '../document/facts';
import type { Verdict } from '../checks/verdict';
import type { SpecOperation } from './spec';
import { jsonBodySchema, schemaProperties } from './target';
import type { SpecContext } from './checks';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const params = (op: SpecOperation | undefined) => (op?.op.parameters ?? []) as OpenAPIV3.ParameterObject[];

/**
 * An operation is found by its template with any trailing slash set aside; OpenAPI paths are exact, so
 * a slash more is another path, one the document does not name.
 */
function checkNoTrailingSlash(verdict: Verdict, clause: 'SPEC-4' | 'SPEC-5', path: string, documented: string): void {
  verdict
    .at({ valueClass: 'path' })
    .check({ clause, ok: !path.endsWith('/'), title: 'the spec describes the path with a trailing slash', received: path, allowed: documented });
}

/** SPEC-2: the runtime operation exists, and the check update is under /v1/. */
export function underV1({ spec, target, verdict }: SpecContext): void {
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
}

/** SPEC-3: the runtime operation and the check update each declare one scheme, HTTP bearer. */
export function bearerSecurity({ spec, target, verdict }: SpecContext): void {
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
      field: `securitySchemes.${names[0]}`,
      title: `is not HTTP bearer (the scheme ${label} declares)`,
      received: scheme ?? 'undefined scheme',
      allowed: '{ type: http, scheme: bearer }',
    });
  }
}

/** SPEC-4: the runtime operation's path, parameters and responses. */
export function runtimeOperation({ target, verdict, config }: SpecContext): void {
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
      field: `responses.${status}`,
      title: 'is not declared',
      received: Object.keys(op!.op.responses ?? {}),
      allowed: '200, 404 and 429',
    });
  }
}

/** SPEC-5: the check update is deprecated and takes a path id, a boolean query parameter and its body fields. */
export function checkUpdateOperation({ spec, target, verdict }: SpecContext): void {
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
      field: name,
      title: `is not a property of the JSON body of ${label}`,
      received: Object.keys(props).slice(0, 40),
      allowed: `a body schema with ${name}`,
    });
}
