/**
 * Reads the target's OpenAPI document: a GET (bounded) or a file, then parse, YAML as the fallback (published documents hold raw newlines in
 * JSON strings). An unreachable target stops the run ('unreachable'), and so does a SPEC_URL file that cannot be read ('config'); one
 * that answers without a document is a contract failure ('no-spec', SPEC-1).
 */
import { readFile } from 'node:fs/promises';
import { SuiteError } from '../run/suite-error';
import { specFilePath, unreadableFile } from '../run/path-checks';
import { sendRaw, type RawResponse } from '../http/transport';

const TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;
const REDIRECTS = [301, 302, 303, 307, 308];

/** A target that wants credentials for its spec too (the document asks for them "with every request") gets them on a second try. */
export async function fetchSpecText(url: string, credentials?: Record<string, string>): Promise<string> {
  const file = specFilePath(url);
  if (file !== undefined) {
    // The runner checked it (path-checks.ts); a file gone since is still the configuration's mistake, not the target's.
    const unreadable = unreadableFile(file);
    if (unreadable) throw new SuiteError('config', `SPEC_URL ${url}: ${unreadable}`);
    return readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
      throw new SuiteError('config', `SPEC_URL ${url}: cannot be read (${e.code ?? e.message})`);
    });
  }
  let res = await get(url, { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' });
  if ((res.status === 401 || res.status === 403) && credentials) {
    res = await get(url, { accept: 'application/json', ...credentials }).catch(() => res);
  }
  if (res.status !== 200) {
    throw new SuiteError('no-spec', `GET ${url} answered ${res.status}, not 200 with an OpenAPI document; set SPEC_URL if the spec lives elsewhere`);
  }
  return res.text;
}

/**
 * GET through the tests' own transport, not fetch: fetch refuses ports that HTTP servers use freely (6000, 6665-6669, ...) as a "bad port",
 * and a target the tests can reach must not be called unreachable here. Redirects are followed as fetch did, credentials only within the origin.
 */
async function get(url: string, headers: Record<string, string>): Promise<RawResponse> {
  for (let hops = 0; ; hops++) {
    let res: RawResponse;
    try {
      res = await sendRaw(url, { method: 'GET', headers, timeoutMs: TIMEOUT_MS });
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw new SuiteError('unreachable', `the target is unreachable: GET ${url} failed (${why}); check BASE_URL / SPEC_URL`);
    }
    const location = res.headers.location;
    if (!REDIRECTS.includes(res.status) || !location || hops === MAX_REDIRECTS) return res;
    const next = new URL(location, url);
    if (next.origin !== new URL(url).origin) headers = { accept: headers.accept };
    url = next.href;
  }
}

export function parseSpecText(text: string, origin: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    try {
      // Loaded only for a document that is not JSON: every worker imports this module.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { parse } = require('yaml') as typeof import('yaml');
      return parse(text, { maxAliasCount: -1 });
    } catch (e) {
      throw new SuiteError('no-spec', `the document at ${origin} is neither JSON nor YAML: ${(e as Error).message.split('\n')[0]}`);
    }
  }
}

/** Why a parsed body is no OpenAPI document at all, or undefined: one that only breaks the rules is still read, and SPEC-1 names its problems. */
export function notOpenApi(parsed: unknown, origin: string): string | undefined {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return `the document at ${origin} is not a JSON object`;
  if (!['openapi', 'swagger', 'paths'].some((k) => k in parsed))
    return `the document at ${origin} has none of "openapi", "swagger", "paths": no OpenAPI document`;
  return undefined;
}
