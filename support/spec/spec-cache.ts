/**
 * The spec is fetched, parsed and validated once per run (global setup) and handed to the workers
 * through a file: no test waits on the network for it, a large document is downloaded once, and no
 * worker pays for the validation again (a worker is started anew after every failed test, so in a run
 * with many failures this is most of a worker's start). A worker only dereferences the checked document.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../run/config';
import { DEFAULT_ACCOUNT_HEADER } from '../document/facts';
import { buildSpec, dereference, Spec } from './spec';
import { fetchSpecText, parseSpecText } from './spec-source';

export const SPEC_CACHE_VARIABLE = 'CONTRACT_SPEC_CACHE';

/** What the cache file holds: the document as checked (dangling references patched) and its problems. */
interface CachedSpec {
  origin: string;
  raw: unknown;
  problems: string[];
}

/** The account header's name is not known before the spec is read: the configured one, or the documented default. */
const credentialHeaders = (config: Config) => ({ authorization: `Bearer ${config.apiKey}`, [config.accountHeader ?? DEFAULT_ACCOUNT_HEADER]: config.accountId });

const readSpec = async (config: Config) => buildSpec(parseSpecText(await fetchSpecText(config.specUrl, undefined, credentialHeaders(config)), config.specUrl), config.specUrl);

export async function fetchAndCacheSpec(config: Config): Promise<string> {
  const spec = await readSpec(config);
  const dir = join(tmpdir(), 'contract-suite');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `spec-${process.pid}-${Date.now()}.json`);
  const cached: CachedSpec = { origin: spec.origin, raw: spec.raw, problems: spec.problems };
  writeFileSync(file, JSON.stringify(cached));
  return file;
}

export async function loadSpec(config: Config): Promise<Spec> {
  const file = process.env[SPEC_CACHE_VARIABLE];
  if (!file) return readSpec(config);
  const { origin, raw, problems } = JSON.parse(readFileSync(file, 'utf8')) as CachedSpec;
  // A problem of dereferencing is among the cached problems already.
  return new Spec(raw, (await dereference(raw)).deref, problems, origin);
}
