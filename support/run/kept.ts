/** What a run keeps for the next ones, under node_modules/.cache/contract-suite/, keyed by its inputs and the code that made it, so nothing stale is read. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const KEPT_ROOT = join(__dirname, '../../node_modules/.cache/contract-suite');

/** A key of `format` (bumped when what is kept changes shape), the inputs, and the files of the code that made it. */
export function keptKey(format: number, inputs: string[], codeFiles: string[]): string {
  const hash = createHash('sha256').update(`${format}\0`);
  for (const input of inputs) hash.update(input).update('\0');
  for (const file of codeFiles) hash.update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 32);
}

/** Written aside and renamed into place: two processes keeping the same thing never read half a file. */
export function writeWhole(file: string, text: string): void {
  writeFileSync(`${file}.${process.pid}`, text);
  renameSync(`${file}.${process.pid}`, file);
}

/** Keeps the `keep` most recent entries of `dir` (files or folders) that `entries` selects. */
export function pruneKept(dir: string, keep: number, entries: (name: string) => boolean = () => true): void {
  const found = readdirSync(dir)
    .filter(entries)
    .map((name) => join(dir, name));
  if (found.length <= keep) return;
  const byAge = found.map((path) => ({ path, t: statSync(path).mtimeMs })).sort((a, b) => b.t - a.t);
  for (const { path } of byAge.slice(keep)) rmSync(path, { recursive: true, force: true });
}
