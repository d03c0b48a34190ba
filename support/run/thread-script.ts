/**
 * A TypeScript module of the suite as a script a worker thread can run. A worker thread starts without
 * Playwright's TypeScript loader, so the module and what it imports are bundled with esbuild (packages
 * stay external) into node_modules/.cache/contract-suite/threads/, and bundled again when one of those
 * files changes. Beside each bundle a list of its inputs is kept; the bundle's name is a key of their
 * contents as esbuild read them, of this file (the build options), of esbuild's version and of the
 * target. A change of imports is a change of an importing file, so the list follows it. Not followed: a
 * new file that wins module resolution over an input without any input changing (`x.ts` added beside
 * an imported `x.js`); `npm run` scripts and sources here never do that.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { KEPT_ROOT, keptKey, pruneKept, writeWhole } from './kept';

const ROOT = join(__dirname, '../..');
const THREADS_DIR = join(KEPT_ROOT, 'threads');
const TARGET = `node${process.versions.node.split('.')[0]}`;
/** Bumped when what is kept changes shape. */
const FORMAT = 1;

const stem = (entry: string) => entry.replace(/\.ts$/, '').replace(/[^A-Za-z0-9]+/g, '-');

/** The key of the sources (path and text, in path order), of this file's build code, esbuild's version and the target. */
const keyOf = (sources: ReadonlyMap<string, string>) =>
  keptKey(FORMAT, [TARGET, ...[...sources].flat()], [__filename, require.resolve('esbuild/package.json')]);

/** The bundle of `entry` (a path from the package root, or absolute), built into `dir` if none there matches its sources. */
export async function threadScript(entry: string, dir = THREADS_DIR): Promise<string> {
  const list = join(dir, `${stem(entry)}.inputs.json`);
  try {
    const inputs = JSON.parse(readFileSync(list, 'utf8')) as string[];
    const kept = join(dir, `${stem(entry)}-${keyOf(new Map(inputs.map((f) => [f, readFileSync(resolve(ROOT, f), 'utf8')])))}.cjs`);
    if (existsSync(kept)) return kept;
  } catch {
    // No list yet, or an input gone: built below.
  }
  const esbuild = await import('esbuild');
  // The sources as esbuild read them: the key is of what was bundled, even if a file is saved meanwhile.
  const read = new Map<string, string>();
  const recordSources = {
    name: 'record-sources',
    setup(b: import('esbuild').PluginBuild) {
      b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        read.set(relative(ROOT, args.path), text);
        return { contents: text, loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js' };
      });
    },
  };
  const built = await esbuild.build({
    entryPoints: [resolve(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: TARGET,
    packages: 'external',
    write: false,
    logLevel: 'error',
    plugins: [recordSources],
  });
  const sources = new Map([...read].sort(([a], [b]) => a.localeCompare(b)));
  const outfile = join(dir, `${stem(entry)}-${keyOf(sources)}.cjs`);
  mkdirSync(dir, { recursive: true });
  writeWhole(outfile, built.outputFiles[0].text);
  writeWhole(list, JSON.stringify([...sources.keys()]));
  try {
    pruneKept(dir, 3, (name) => name.startsWith(`${stem(entry)}-`) && name.endsWith('.cjs'));
  } catch {
    // Housekeeping: another run pruning or writing at the same moment is no reason to fail this one.
  }
  return outfile;
}
