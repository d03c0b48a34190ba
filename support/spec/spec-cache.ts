/** The spec is fetched and checked once per run (global setup) and handed to the workers through a file; the check (most of a second) is kept between runs. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../run/config';
import { runFiles } from '../run/run-files';
import { KEPT_ROOT, keepFile, keptKey } from '../run/kept';
import { DEFAULT_ACCOUNT_HEADER } from '../document/facts';
import { buildSpec, Spec } from './spec';
import { fetchSpecText, notOpenApi, parseSpecText } from './spec-source';
import { isSuiteError, SuiteError } from '../run/suite-error';

/** What a spec file holds (the run's, or one kept between runs): the Spec's data, without the operations it finds again. */
type CheckedSpec = Pick<Spec, 'origin' | 'raw' | 'deref' | 'problems' | 'unserved'>;

/** What a kept check holds (CheckedSpec): a new format is a new key, so that no older file is read as this one. */
const KEPT_FORMAT = 2;
const CHECKS_DIR = join(KEPT_ROOT, 'spec-checks');
const ORIGIN = '{{origin}}';

/** A checked document under another origin: a kept one names its origin, whose port changes every run, as ORIGIN. */
const moved = (c: CheckedSpec, from: string, to: string): CheckedSpec => ({ ...c, origin: to, problems: c.problems.map((p) => p.split(from).join(to)) });

/** The checked document from an earlier run (keyed by its text and the code that checks it), or checked now and kept; a cache that cannot be used is skipped. */
async function checkOnce(text: string, origin: string): Promise<CheckedSpec> {
  let file: string | undefined;
  try {
    const code = [
      join(__dirname, 'spec.ts'),
      ...['@apidevtools/swagger-parser', '@apidevtools/json-schema-ref-parser', 'ajv'].map((p) => require.resolve(`${p}/package.json`)),
    ];
    file = join(CHECKS_DIR, `${keptKey(KEPT_FORMAT, [text], code)}.json`);
    return moved(JSON.parse(readFileSync(file, 'utf8')), ORIGIN, origin);
  } catch {
    /* not checked before */
  }
  const parsed = parseSpecText(text, origin);
  const notSpec = notOpenApi(parsed, origin);
  if (notSpec) throw new SuiteError('no-spec', notSpec);
  const { raw, deref, problems } = await buildSpec(parsed, origin);
  const checked = { origin, raw, deref, problems };
  if (file) keepFile(CHECKS_DIR, file, JSON.stringify(moved(checked, origin, ORIGIN)));
  return checked;
}

/** The checked spec; a target that answers without one gets an empty spec that says why. An unreachable one throws. */
async function fetchAndCheck(config: Config): Promise<CheckedSpec> {
  try {
    // The account header's name is not known before the spec is read: the configured one, or the documented default.
    const credentials = { authorization: `Bearer ${config.apiKey}`, [config.accountHeader ?? DEFAULT_ACCOUNT_HEADER]: config.accountId };
    const text = await fetchSpecText(config.specUrl, credentials);
    return await checkOnce(text, config.specUrl);
  } catch (e) {
    if (!isSuiteError(e, 'no-spec')) throw e;
    return { origin: config.specUrl, raw: {}, deref: {}, problems: [e.message], unserved: e.message };
  }
}

/** Global setup: fetches and checks the spec, and writes it to the run's file of it, which the workers read. */
export async function fetchAndCacheSpec(config: Config, file: string): Promise<void> {
  writeFileSync(file, JSON.stringify(await fetchAndCheck(config)));
}

export async function loadSpec(config: Config): Promise<Spec> {
  const file = runFiles(config.environment).specCache;
  const { origin, raw, deref, problems, unserved }: CheckedSpec = file ? JSON.parse(readFileSync(file, 'utf8')) : await fetchAndCheck(config);
  return new Spec(raw, deref, problems, origin, unserved);
}
