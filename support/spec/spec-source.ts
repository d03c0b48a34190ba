/**
 * Reads the target's OpenAPI document: fetch (bounded), then parse, YAML as the fallback (published documents hold raw newlines in JSON strings).
 * An unreachable target stops the run ('unreachable'); one that answers without a document is a contract failure ('no-spec', SPEC-1).
 */
import { readFile } from 'node:fs/promises';
import { SuiteError } from '../run/suite-error';

const TIMEOUT_MS = 10_000;

/** A target that wants credentials for its spec too (the document asks for them "with every request") gets them on a second try. */
export async function fetchSpecText(url: string, credentials?: Record<string, string>): Promise<string> {
  if (!/^https?:/.test(url)) {
    const path = url.startsWith('file:') ? new URL(url) : url;
    return readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
      throw new SuiteError('unreachable', `SPEC_URL ${url} cannot be read: ${e.code ?? e.message}`);
    });
  }
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' } });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    const why = err.name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : (err.cause?.code ?? err.cause?.message ?? err.message);
    throw new SuiteError('unreachable', `the target is unreachable: GET ${url} failed (${why}); check BASE_URL / SPEC_URL`);
  }
  if ((res.status === 401 || res.status === 403) && credentials) {
    await res.arrayBuffer();
    res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json', ...credentials } }).catch(() => res);
  }
  if (res.status !== 200) {
    throw new SuiteError('no-spec', `GET ${url} answered ${res.status}, not 200 with an OpenAPI document; set SPEC_URL if the spec lives elsewhere`);
  }
  return res.text();
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
