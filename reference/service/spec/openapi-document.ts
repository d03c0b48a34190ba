// The served OpenAPI document: specs/openapi.json (written by hand) with the configured account
// header name substituted. Built once per service instance.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const SPEC_FILE = resolve(__dirname, '../../../specs/openapi.json');
export const DOCUMENTED_ACCOUNT_HEADER = 'X-Service-Account';
// Last-Modified of the documents: swagger.json is the older one.
export const OPENAPI_LAST_MODIFIED = new Date('2026-08-18T09:00:00Z');
export const SWAGGER_LAST_MODIFIED = new Date('2021-03-01T09:00:00Z');

const operations = (doc: Json): Json[] => Object.values(doc.paths as Json).flatMap((item: Json) => Object.values(item) as Json[]);

export function buildOpenApi(accountHeader: string): Json {
  const doc: Json = JSON.parse(readFileSync(SPEC_FILE, 'utf8'));
  for (const op of operations(doc)) {
    for (const p of op.parameters ?? []) if (p.in === 'header' && p.name === DOCUMENTED_ACCOUNT_HEADER) p.name = accountHeader;
  }
  return doc;
}
