/**
 * SPEC checks that read what the target serves: its document (SPEC-1) and an older one beside it
 * (SPEC-8). Each check is a test's body: Playwright sets up only the fixtures named in its parameter
 * pattern, so each names what it reads (an `api` named and unused would still add a `requests` annotation).
 */
import { Spec, templateKey } from './spec';
import { parseSpecText } from './spec-source';
import type { SpecContext } from './checks';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** SPEC-1: /openapi.json is served, parses, is OpenAPI 3.x; the document the suite reads validates and resolves. */
export async function specServed({ api, spec, verdict, config }: SpecContext): Promise<void> {
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
}

/** SPEC-8: a /swagger.json, where one is served, is not newer than openapi.json (by date, by version). */
export async function swaggerNotCurrent({ api, spec, verdict }: SpecContext): Promise<void> {
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
}
