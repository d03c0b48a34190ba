/**
 * A TypeScript module of the suite as a script a worker thread can run. A worker thread starts without
 * Playwright's TypeScript loader, so the module and what it imports are bundled with esbuild (packages
 * stay external) into node_modules/.cache/contract-suite/threads/, and bundled again only when one of
 * those files changes: beside each bundle a list of its inputs is kept, and the bundle's name is a key of
 * their contents (a change of imports is a change of the importing file, so the list is never stale).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { KEPT_ROOT, keptKey, pruneKept, writeWhole } from './kept';

const ROOT = join(__dirname, '../..');
const DIR = join(KEPT_ROOT, 'threads');
/** Bumped when the build options below change. */
const FORMAT = 1;

const stem = (entry: string) => entry.replace(/\.ts$/, '').replace(/[^A-Za-z0-9]+/g, '-');
const keyOf = (inputs: string[]) =>
  keptKey(
    FORMAT,
    inputs,
    inputs.map((f) => join(ROOT, f)),
  );

/** The bundle of `entry` (a path from the package root), built if none matches its sources. */
export async function threadScript(entry: string): Promise<string> {
  const list = join(DIR, `${stem(entry)}.inputs.json`);
  try {
    const kept = join(DIR, `${stem(entry)}-${keyOf(JSON.parse(readFileSync(list, 'utf8')) as string[])}.cjs`);
    if (existsSync(kept)) return kept;
  } catch {
    // No list yet, or an input gone: built below.
  }
  const esbuild = await import('esbuild');
  const built = await esbuild.build({
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const inputs = Object.keys(built.metafile.inputs).map((f) => relative(ROOT, join(ROOT, f)));
  const outfile = join(DIR, `${stem(entry)}-${keyOf(inputs)}.cjs`);
  mkdirSync(DIR, { recursive: true });
  writeWhole(outfile, built.outputFiles[0].text);
  writeWhole(list, JSON.stringify(inputs));
  pruneKept(DIR, 3, (name) => name.startsWith(`${stem(entry)}-`));
  return outfile;
}
