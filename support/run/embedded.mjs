/**
 * Starts a program of the embedded reference as `node --import tsx <entry>` would, only faster:
 *   node support/run/embedded.mjs reference/service/main.ts [args]
 *   node support/run/embedded.mjs reference/agent/main.ts
 *
 * Why not `node --import tsx reference/…/main.ts`: the TypeScript loader costs about three times the
 * CPU of the service's own start, and a default run starts the service once and the agent twice (the
 * self-test: once per fault run). So the sources are bundled once with esbuild (a devDependency)
 * into node_modules/.cache/contract-suite/, named by a hash of every file under reference/ and of the
 * lock file, and rebuilt when one changes. The packages (fastify and its own) are in the bundle too: one
 * file to read and compile instead of some hundreds starts the service 35 ms sooner. Each source's
 * `__dirname` is kept as the source's own folder, so files the reference reads beside its sources
 * (specs/openapi.json) are found as before. Without esbuild it falls back to tsx.
 *
 * The plugin modules REFERENCE_PLUGINS names for the service, and AGENT_PLUGINS for the agent (README:
 * "Bending the reference"), are bundled too, each on its own, and the variable handed on names their bundles. They may live anywhere, so a plugin's bundle is
 * keyed by the files esbuild read for it (its manifest lists them), not by a folder.
 *
 * Plain JavaScript, so that plain `node` runs it without any loader.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
// The bundle is CommonJS, as the sources are under tsx in this package.
const require = createRequire(import.meta.url);
const CACHE = join(ROOT, 'node_modules/.cache/contract-suite');
/** Bump when the build options below change, so that old bundles are not reused. */
const BUILD_VERSION = 2;

function sourcesOf(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? sourcesOf(join(dir, e.name)) : /\.[cm]?[jt]s$/.test(e.name) ? [join(dir, e.name)] : []));
}

function bundleName(entry) {
  const hash = createHash('sha256').update(`${BUILD_VERSION}\n`);
  // The packages are bundled too: the lock file names their versions.
  for (const file of [...sourcesOf(join(ROOT, 'reference')), join(ROOT, 'package-lock.json')]) hash.update(`${file}\n`).update(readFileSync(file));
  return join(CACHE, `${stem(entry)}-${hash.digest('hex').slice(0, 16)}.cjs`);
}

/** reference/service/main.ts → reference-service-main */
const stem = (entry) => entry.replace(/\.ts$/, '').replace(/[^A-Za-z0-9]+/g, '-');

// Each source's __dirname becomes its own folder, as it is under tsx, not the bundle's.
const keepDirname = {
  name: 'keep-dirname',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(/\b__dirname\b/g, JSON.stringify(dirname(args.path))),
      loader: 'ts',
    }));
  },
};

/** Bundles `file` (absolute) into `outfile`; returns the files esbuild read, the packages' apart. */
async function esbuildTo(file, outfile) {
  const esbuild = await import('esbuild');
  mkdirSync(CACHE, { recursive: true });
  // Written under a name of its own, then renamed: runs that start at once never read half a file.
  const partial = `${outfile}.${process.pid}.partial`;
  const { metafile } = await esbuild.build({
    entryPoints: [file],
    metafile: true,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    outfile: partial,
    logLevel: 'error',
    plugins: [keepDirname],
  });
  renameSync(partial, outfile);
  return Object.keys(metafile.inputs)
    .filter((f) => !f.split('/').includes('node_modules'))
    .map((f) => resolve(f));
}

async function build(entry, outfile) {
  await esbuildTo(join(ROOT, entry), outfile);
  for (const old of readdirSync(CACHE))
    if (old.startsWith(`${stem(entry)}-`) && join(CACHE, old) !== outfile && !old.endsWith('.partial')) rmSync(join(CACHE, old), { force: true });
}

async function bundle(entry) {
  const outfile = bundleName(entry);
  if (!existsSync(outfile)) await build(entry, outfile);
  return outfile;
}

/** The hash of these files and the lock file (the packages' versions); null when one is gone. */
function inputsHash(files) {
  const hash = createHash('sha256').update(`${BUILD_VERSION}\n`);
  for (const file of [...files, join(ROOT, 'package-lock.json')]) {
    if (!existsSync(file)) return null;
    hash.update(`${file}\n`).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/** A plugin module's bundle: reused while every file it was built from is unchanged. */
async function pluginBundle(file) {
  const name = `plugin-${stem(relative(ROOT, file))}-${createHash('sha256').update(file).digest('hex').slice(0, 8)}`;
  const manifest = join(CACHE, `${name}.json`);
  const built = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')) : undefined;
  if (built && inputsHash(built.inputs) === built.key && existsSync(built.outfile)) return built.outfile;
  const fresh = join(CACHE, `${name}.${process.pid}.cjs`);
  const inputs = await esbuildTo(file, fresh);
  const outfile = join(CACHE, `${name}-${inputsHash(inputs)}.cjs`);
  renameSync(fresh, outfile);
  writeFileSync(`${manifest}.${process.pid}`, JSON.stringify({ inputs, key: inputsHash(inputs), outfile }));
  renameSync(`${manifest}.${process.pid}`, manifest);
  for (const old of readdirSync(CACHE))
    if (old.startsWith(`${name}-`) && old.endsWith('.cjs') && join(CACHE, old) !== outfile) rmSync(join(CACHE, old), { force: true });
  return outfile;
}

/** Each program's variable that names its plugin modules. */
const PLUGINS_VARIABLE = { 'reference/service/main.ts': 'REFERENCE_PLUGINS', 'reference/agent/main.ts': 'AGENT_PLUGINS' };

/** The program's plugins variable, its modules bundled: the program loads the bundles (it resolves paths from the working folder). */
async function bundlePlugins(variable) {
  const files = (process.env[variable] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => resolve(p));
  // A missing file is the program's to name (exit 2), as without bundles.
  if (files.some((f) => !existsSync(f))) return;
  process.env[variable] = (await Promise.all(files.map(pluginBundle))).join(',');
}

const entry = process.argv[2];
if (!/^reference\/[\w/-]+\.ts$/.test(entry ?? '') || !existsSync(join(ROOT, entry))) {
  process.stderr.write('usage: node support/run/embedded.mjs reference/<program>.ts [args]\n');
  process.exit(2);
}
// The started program sees the arguments it would see when run directly.
process.argv.splice(2, 1);
// Started by the suite's runner with a pipe as stdin: when the runner goes, however it went (a signal
// no handler sees, SIGKILL), the pipe closes, and the program goes too instead of holding its port.
if (process.env.EMBEDDED_EXIT_WITH_PARENT === '1') process.stdin.on('close', () => process.exit(0)).resume();

Promise.all([bundle(entry), PLUGINS_VARIABLE[entry] ? bundlePlugins(PLUGINS_VARIABLE[entry]) : undefined]).then(
  ([outfile]) => require(outfile),
  (e) => {
    process.stderr.write(`${entry}: no bundle (${String(e.message).split('\n')[0]}); starting through tsx\n`);
    require('tsx/cjs/api').register();
    require(join(ROOT, entry));
  },
);
