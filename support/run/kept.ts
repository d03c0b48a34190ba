/** What a run keeps for the next ones, under node_modules/.cache/contract-suite/, keyed by its inputs and the code that made it, so nothing stale is read. */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const KEPT_ROOT = join(__dirname, '../../node_modules/.cache/contract-suite');
/** Entries each cache keeps: more than the specs one self-test serves, so that they do not evict each other. */
const KEPT_ENTRIES = 32;

/** A key of `format` (bumped when what is kept changes shape), the inputs, and the files of the code that made it. */
export function keptKey(format: number, inputs: string[], codeFiles: string[]): string {
  const hash = createHash('sha256').update(`${format}\0`);
  for (const input of inputs) hash.update(input).update('\0');
  for (const file of codeFiles) hash.update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 32);
}

/**
 * Keeps `text` as `file` under `root` for later runs, written aside and renamed into place (two processes keeping the same thing never read
 * half a file); then only the KEPT_ENTRIES most recent entries of `root` stay. A cache that cannot be written is skipped.
 */
export function keepFile(root: string, file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.${process.pid}`, text);
    renameSync(`${file}.${process.pid}`, file);
    // The new entry is the newest, never the one pruned; a file still being written aside (`<file>.<pid>`) is no entry.
    const byAge = readdirSync(root)
      .filter((name) => !/\.\d+$/.test(name))
      .map((name) => ({ path: join(root, name), t: statSync(join(root, name)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { path } of byAge.slice(KEPT_ENTRIES)) rmSync(path, { recursive: true, force: true });
  } catch {
    /* a read-only checkout: made again next time */
  }
}
