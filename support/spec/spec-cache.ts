/**
 * The spec is fetched and parsed once per run (global setup) and handed to the workers through a file,
 * so no test waits on the network for it and a large document is downloaded once.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../run/config';
import { DEFAULT_ACCOUNT_HEADER } from '../document/facts';
import { buildSpec, type Spec } from './spec';
import { fetchSpecText, parseSpecText } from './spec-source';

export const SPEC_CACHE_VARIABLE = 'CONTRACT_SPEC_CACHE';

/** The account header's name is not known before the spec is read: the configured one, or the documented default. */
const credentialHeaders = (config: Config) => ({ authorization: `Bearer ${config.apiKey}`, [config.accountHeader ?? DEFAULT_ACCOUNT_HEADER]: config.accountId });

export async function fetchAndCacheSpec(config: Config): Promise<string> {
  const text = await fetchSpecText(config.specUrl, undefined, credentialHeaders(config));
  const parsed = parseSpecText(text, config.specUrl);
  const dir = join(tmpdir(), 'contract-suite');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `spec-${process.pid}-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify({ origin: config.specUrl, parsed }));
  return file;
}

export async function loadSpec(config: Config): Promise<Spec> {
  const file = process.env[SPEC_CACHE_VARIABLE];
  if (file) {
    const { origin, parsed } = JSON.parse(readFileSync(file, 'utf8'));
    return buildSpec(parsed, origin);
  }
  return buildSpec(parseSpecText(await fetchSpecText(config.specUrl, undefined, credentialHeaders(config)), config.specUrl), config.specUrl);
}
