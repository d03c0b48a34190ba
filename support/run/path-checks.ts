/**
 * The variables that name a path (REPORT_DIR, SPEC_URL as a file, WAIVERS_FILE), checked before any test: a path that cannot be used
 * is a configuration error (exit 3) with one line, not a stack trace at the first write, a hang, or an "unreachable" target.
 */
import { accessSync, constants, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SuiteError } from './suite-error';

const codeOf = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

/** Why a file cannot be read, or undefined when it can: checked without opening it, which blocks on a FIFO. */
export function unreadableFile(path: string | URL): string | undefined {
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) return 'is a folder, not a file';
    if (!stat.isFile()) return 'is not a regular file';
    accessSync(path, constants.R_OK);
    return undefined;
  } catch (e) {
    return codeOf(e) === 'ENOENT' ? 'no such file' : `cannot be read (${codeOf(e)})`;
  }
}

/** SPEC_URL as a file to read (a path, or a file: URL); undefined for an http(s) URL. */
export function specFilePath(specUrl: string): string | undefined {
  if (/^https?:/i.test(specUrl)) return undefined;
  if (!specUrl.startsWith('file:')) return specUrl;
  try {
    return fileURLToPath(specUrl);
  } catch {
    throw new SuiteError('config', `SPEC_URL ${specUrl}: not a file: URL of this machine (e.g. file:///home/me/openapi.json)`);
  }
}

/**
 * Each missing folder from the nearest one that exists, one level at a time. Not mkdirSync's `recursive`: on Node 20 it retries forever
 * where the kernel answers ENOENT under a parent that exists (/proc), which is how REPORT_DIR=/proc/nope spun at full CPU.
 */
function makeFolder(dir: string): void {
  const parent = dirname(dir);
  if (parent !== dir && !existsSync(parent)) makeFolder(parent);
  try {
    mkdirSync(dir);
  } catch (e) {
    if (codeOf(e) !== 'EEXIST') throw e;
  }
}

/** REPORT_DIR is a folder this process can write in, made if missing: a file is written and removed, which no permission bit can mislead. */
export function checkReportDir(dir: string): void {
  const fail = (what: string): never => {
    throw new SuiteError('config', `REPORT_DIR ${dir}: ${what}`);
  };
  if (!existsSync(dir)) {
    try {
      makeFolder(dir);
    } catch (e) {
      fail(`cannot create the folder (${codeOf(e)})`);
    }
  }
  if (!statSync(dir).isDirectory()) fail('is a file, not a folder');
  const probe = join(dir, `.write-probe-${process.pid}`);
  try {
    writeFileSync(probe, '', { flag: 'wx' });
  } catch (e) {
    fail(`cannot write in the folder (${codeOf(e)})`);
  }
  rmSync(probe, { force: true });
}

/** The runner's check of every path variable but WAIVERS_FILE (read with the configuration): the reads first, so that a bad one creates no folder. */
export function checkPaths({ specUrl, reportDir }: { specUrl: string; reportDir: string }): void {
  // Empty while the embedded service has no port yet: its spec is served, not a file.
  const specFile = specUrl ? specFilePath(specUrl) : undefined;
  const unreadable = specFile === undefined ? undefined : unreadableFile(specFile);
  if (unreadable) throw new SuiteError('config', `SPEC_URL ${specUrl}: ${unreadable}`);
  checkReportDir(reportDir);
}
