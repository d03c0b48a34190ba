/**
 * The target's OpenAPI document as the suite uses it: raw (dangling references patched), its problems (SPEC-1), a dereferenced copy,
 * and operations found by method and path template, never by operationId.
 */
import type { OpenAPIV3 } from 'openapi-types';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export interface SpecOperation {
  method: string;
  /** The path as the client calls it, server prefix included, e.g. /v1/runtimes/{id}. */
  path: string;
  /** JSON pointer of the operation in the raw document. */
  pointer: string;
  op: OpenAPIV3.OperationObject;
}

export class Spec {
  readonly operations: SpecOperation[];

  constructor(
    readonly raw: Json,
    readonly deref: Json,
    /** Why the document is not a valid OpenAPI 3.x document; empty when it is. */
    readonly problems: string[],
    readonly origin: string,
    /** Why the target serves no OpenAPI document at all (SPEC-1 fails and nothing else is tested); unset when it serves one. */
    readonly unserved?: string,
  ) {
    this.operations = listOperations(raw, deref);
  }

  /** The operation at `pathTemplate`; a path behind a server prefix (`/api/v1/...`) matches too. */
  find(method: string, pathTemplate: string): SpecOperation | undefined {
    const key = templateKey(pathTemplate);
    const candidates = this.operations.filter((o) => o.method === method.toLowerCase());
    return candidates.find((o) => templateKey(o.path) === key) ?? candidates.find((o) => templateKey(o.path).endsWith(key));
  }

  /** The header parameter of the runtime operation whose name ends in -account. */
  accountHeaderOf(op: SpecOperation | undefined): string | undefined {
    const params = (op?.op.parameters ?? []) as OpenAPIV3.ParameterObject[];
    return params.find((p) => p?.in === 'header' && /-account$/i.test(p.name))?.name;
  }
}

/** `/v1/runtimes/{runtimeId}` and `/v1/runtimes/{id}` are the same template. */
export const templateKey = (path: string) => path.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '');

/** JSON pointer tokens (RFC 6901): `/` and `~` escaped, and back. */
export const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** The tokens of a JSON pointer, unescaped: `/paths/~1v1~1x/get` → ['paths', '/v1/x', 'get']. */
export const pointerTokens = (pointer: string) => pointer.split('/').slice(1).map(unescapePointer);

/** The path of the first server's URL (OpenAPI 3), else the basePath (Swagger 2), without a trailing slash. */
function serverPrefix(raw: Json): string {
  const url = raw.servers?.[0]?.url;
  const path = typeof url !== 'string' ? raw.basePath : URL.canParse(url, 'http://placeholder') ? new URL(url, 'http://placeholder').pathname : '';
  return typeof path === 'string' ? path.replace(/\/+$/, '') : '';
}

function listOperations(raw: Json, deref: Json): SpecOperation[] {
  const prefix = serverPrefix(raw);
  const out: SpecOperation[] = [];
  for (const [path, item] of Object.entries<Json>(deref?.paths ?? {})) {
    if (!item || typeof item !== 'object') continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op || typeof op !== 'object') continue;
      // Path-level parameters apply to every operation beneath them.
      const merged = { ...op, parameters: mergeParameters(item.parameters, op.parameters) };
      out.push({ method, path: `${prefix}${path}`, pointer: `/paths/${escapePointer(path)}/${method}`, op: merged });
    }
  }
  return out;
}

/** Path-level and operation parameters, the operation's replacing the path's of the same place and name. */
const mergeParameters = (shared: Json, own: Json): Json[] => [
  ...new Map([shared, own].flatMap((list) => (Array.isArray(list) ? list : [])).map((p: Json) => [`${p?.in}:${String(p?.name).toLowerCase()}`, p])).values(),
];

/** Every local `$ref` that points at nothing, replaced by an empty schema; returns what it replaced. */
function patchDanglingRefs(doc: Json): string[] {
  const dangling = new Set<string>();
  const seen = new WeakSet<object>();
  const walk = (node: Json) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#') && resolvePointer(doc, node.$ref.slice(1)) === undefined) {
      dangling.add(node.$ref);
      delete node.$ref;
      node['x-dangling-ref'] = true;
    }
    for (const v of Object.values(node)) walk(v);
  };
  walk(doc);
  return [...dangling];
}

export function resolvePointer(doc: Json, pointer: string): Json {
  if (pointer === '' || pointer === '/') return doc;
  let node = doc;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const token = unescapePointer(decodeURIComponent(raw));
    if (node === null || typeof node !== 'object' || !(token in node)) return undefined;
    node = node[token];
  }
  return node;
}

/** Loaded on first use: the runner imports this module and, with the check cached, never validates. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const swaggerParser = () => require('@apidevtools/swagger-parser') as typeof import('@apidevtools/swagger-parser');

/** Parse result (an object: spec-source.ts's notOpenApi turns away the rest) to Spec: validation problems are collected, never thrown. */
export async function buildSpec(parsed: Json, origin: string): Promise<Spec> {
  const problems: string[] = [];
  const version = String(parsed.openapi ?? parsed.swagger ?? '');
  if (!/^3\.\d+\.\d+$/.test(version)) problems.push(`"openapi" is ${JSON.stringify(parsed.openapi ?? parsed.swagger ?? null)}, not 3.x`);
  const raw = structuredClone(parsed);
  const dangling = patchDanglingRefs(raw);
  if (dangling.length) problems.push(`${dangling.length} $ref pointer(s) resolve to nothing: ${dangling.join(', ')}`);
  // A call of swagger-parser that throws is a problem of the document, named by what failed, never an error of the run.
  const attempt = <T>(failed: string, call: () => Promise<T>) => call().catch((e: Error) => void problems.push(`${failed}: ${firstLines(e.message)}`));
  if (/^3\./.test(version)) await attempt('not a valid OpenAPI document', () => swaggerParser().validate(structuredClone(raw)));
  // `$ref`s resolved on a copy (circular ones left as they are); the raw document itself when that fails.
  const deref =
    (await attempt('cannot be dereferenced', () => swaggerParser().dereference(structuredClone(raw), { dereference: { circular: 'ignore' } }))) ?? raw;
  return new Spec(raw, deref, problems, origin);
}

const firstLines = (message: string) => message.split('\n').filter(Boolean).slice(0, 4).join(' | ').slice(0, 600);
