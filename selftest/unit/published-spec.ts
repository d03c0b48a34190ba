/**
 * The real service's published spec (a fixture of the unit tests), built once per worker: building it
 * (validation and dereference of 850 KB) takes a second, and several files read it without changing it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSpec, type Spec } from '../../support/spec/spec';
import { parseSpecText } from '../../support/spec/spec-source';

export const PUBLISHED_SPEC_FILE = join(__dirname, '../fixtures/published-openapi-2026-08-18.json');

let built: Promise<Spec> | undefined;
export const publishedSpec = (): Promise<Spec> => (built ??= buildSpec(parseSpecText(readFileSync(PUBLISHED_SPEC_FILE, 'utf8'), 'published'), 'published'));
