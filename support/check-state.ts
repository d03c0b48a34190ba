/**
 * Snapshot and restore of the checks the update tests change (CU-9). The full state is read through the
 * GET of the check path; a restore sends back the writable properties (those of the update body schema)
 * that the snapshot holds, and is verified by reading the check again. The snapshot is written to a file
 * before the first update, so that a run that dies half-way is repaired by the next run against the
 * same target, and removed once a restore has been verified.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CallOptions } from './client';
import type { Exchange } from './exchange';
import { oneLine } from './exchange';
import type { SpecOperation } from './spec';
import { jsonBodySchema, schemaProperties } from './target';

export type CheckState = Record<string, unknown>;

/** Sends one request to the target; callers decide whether it goes through the contract checks. */
export type Send = (method: string, path: string, options?: CallOptions) => Promise<Exchange>;

export interface SnapshotFile {
  version: 1;
  baseUrl: string;
  /** The embedded service dies with its run: a snapshot of it is worthless to the next run. */
  embedded: boolean;
  savedAt: string;
  /** Full state of each check as read before the first update, by id. */
  checks: Record<string, CheckState>;
}

export const snapshotPath = (reportDir: string) => join(reportDir, '.check-snapshot.json');

/**
 * These properties constrain one another (frequencyOffset is checked against the frequency and check
 * type the check has after the update), so a restore sends them together or not at all.
 */
const COUPLED = ['checkType', 'frequency', 'frequencyOffset'];

// ---------------------------------------------------------------------------------------------------
// Comparing states

/** The update body schema's property names: what a client may write, hence what a restore sends. */
export function writableProperties(updateOp: SpecOperation | undefined): string[] {
  return Object.keys(schemaProperties(jsonBodySchema(updateOp)));
}

/**
 * Equality as a reader of the document sees it: null and absent are the same "no value", and arrays
 * of plain values are compared as collections (a target may return locations in its own order).
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    const plain = (v: unknown) => v === null || typeof v !== 'object';
    if (a.every(plain) && b.every(plain)) {
      const key = (v: unknown) => `${typeof v}:${String(v)}`;
      const [x, y] = [a.map(key).sort(), b.map(key).sort()];
      return x.every((v, i) => v === y[i]);
    }
    return a.every((v, i) => sameValue(v, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
    return [...keys].every((k) => sameValue((a as CheckState)[k], (b as CheckState)[k]));
  }
  return Object.is(a, b);
}

/** The writable properties whose values differ between two states. */
export function changedProperties(before: CheckState, after: CheckState, writable: string[]): string[] {
  return writable.filter((k) => (k in before || k in after) && !sameValue(before[k], after[k]));
}

/** The snapshot's writable properties: the body that puts the check back. */
export function restoreBody(snapshot: CheckState, writable: string[], only?: string[]): CheckState {
  const keys = writable.filter((k) => k in snapshot && (!only || only.includes(k)));
  return Object.fromEntries(keys.map((k) => [k, snapshot[k]]));
}

const isState = (v: unknown): v is CheckState => v !== null && typeof v === 'object' && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------------
// Reading

export async function readCheck(send: Send, path: string): Promise<{ ex: Exchange; state?: CheckState }> {
  const ex = await send('GET', path);
  return { ex, state: ex.status === 200 && isState(ex.json) ? ex.json : undefined };
}

export class SnapshotConflict extends Error {}

export class CheckUnreadable extends Error {}

// ---------------------------------------------------------------------------------------------------
// The snapshot file

export function loadSnapshot(file: string): SnapshotFile | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8'));
    return parsed?.version === 1 && isState(parsed.checks) ? (parsed as SnapshotFile) : undefined;
  } catch {
    return undefined;
  }
}

export function saveSnapshot(file: string, snapshot: SnapshotFile): void {
  mkdirSync(dirname(file), { recursive: true });
  // Written aside and renamed, so an interrupted write never leaves half a snapshot behind.
  writeFileSync(`${file}.tmp`, JSON.stringify(snapshot, null, 2));
  renameSync(`${file}.tmp`, file);
}

export const removeSnapshot = (file: string) => rmSync(file, { force: true });

// ---------------------------------------------------------------------------------------------------
// Restoring

export interface RestoreResult {
  id: string;
  /** Properties that differed from the snapshot before the restore. */
  changed: string[];
  /** Properties still different after it (empty: restored). */
  remaining: string[];
  /** What was sent, for the report. */
  steps: string[];
  /** Why the check could not be read or put back, if so. */
  error?: string;
}

export const restored = (r: RestoreResult) => !r.error && r.remaining.length === 0;

export function describeRestore(r: RestoreResult): string {
  const id = `check ${r.id}`;
  if (r.error) return `${id}: NOT restored: ${r.error}`;
  if (r.changed.length === 0) return `${id}: unchanged, nothing to restore`;
  const what = `${r.changed.length} propert${r.changed.length === 1 ? 'y' : 'ies'} (${r.changed.join(', ')})`;
  return r.remaining.length
    ? `${id}: ${what} differed; still different after the restore: ${r.remaining.join(', ')}`
    : `${id}: restored ${what}; read back equal to the snapshot`;
}

/**
 * Puts one check back as the snapshot has it. First the whole writable state; if the target refuses
 * that (a real service may not take back every property its GET shows), only the properties that
 * differ, with their coupled ones. Each attempt is verified by reading the check back.
 */
export async function restoreCheck(
  read: Send,
  write: Send,
  path: string,
  id: string,
  snapshot: CheckState,
  writable: string[],
  query?: Record<string, string>,
): Promise<RestoreResult> {
  const before = await readCheck(read, path);
  if (!before.state) return { id, changed: [], remaining: [], steps: [], error: `could not read the check (${oneLine(before.ex)})` };
  const changed = changedProperties(snapshot, before.state, writable);
  const result: RestoreResult = { id, changed, remaining: changed, steps: [] };
  if (changed.length === 0) return result;
  const attempts = [restoreBody(snapshot, writable), restoreBody(snapshot, writable, [...changed, ...COUPLED])];
  for (const body of attempts) {
    const ex = await write('PUT', path, { body, query });
    result.steps.push(`PUT ${Object.keys(body).length} properties → ${ex.status}`);
    if (ex.status < 200 || ex.status >= 300) {
      result.error = `the target refused the restore (${oneLine(ex)}): ${ex.text.slice(0, 300)}`;
      continue;
    }
    const after = await readCheck(read, path);
    if (!after.state) {
      result.error = `could not read the check back (${oneLine(after.ex)})`;
      continue;
    }
    result.error = undefined;
    result.remaining = changedProperties(snapshot, after.state, writable);
    if (result.remaining.length === 0) break;
  }
  return result;
}

/**
 * Reads the snapshot for a run: the pending one of an earlier (interrupted) run or worker against the
 * same target is restored first and kept; otherwise the checks are read now. The file is written before
 * this returns, hence before the first update.
 */
export async function takeSnapshot(options: {
  file: string;
  baseUrl: string;
  embedded: boolean;
  ids: string[];
  pathOf: (id: string) => string;
  send: Send;
  writable: string[];
  query?: Record<string, string>;
}): Promise<{ snapshot: SnapshotFile; recovered: RestoreResult[] }> {
  const { file, baseUrl, embedded, ids, pathOf, send, writable, query } = options;
  const pending = loadSnapshot(file);
  const recovered: RestoreResult[] = [];
  let snapshot: SnapshotFile;
  if (pending && pending.baseUrl === baseUrl) {
    for (const [id, state] of Object.entries(pending.checks)) {
      const r = await restoreCheck(send, send, pathOf(id), id, state, writable, query);
      recovered.push(r);
      if (!restored(r)) throw new CheckUnreadable(`a snapshot left by an interrupted run (${file}) could not be put back: ${describeRestore(r)}`);
    }
    snapshot = pending;
  } else if (pending && !pending.embedded) {
    // Another real target's checks are waiting to be put back: never overwrite that.
    throw new SnapshotConflict(
      `${file} holds a snapshot of checks on ${pending.baseUrl} from ${pending.savedAt} that was never restored; ` +
        `run the suite against that BASE_URL once to restore it, or delete the file`,
    );
  } else {
    snapshot = { version: 1, baseUrl, embedded, savedAt: new Date().toISOString(), checks: {} };
  }
  for (const id of ids.filter((i) => !(i in snapshot.checks))) {
    const { ex, state } = await readCheck(send, pathOf(id));
    if (!state) throw new CheckUnreadable(`check ${id} could not be read (${oneLine(ex)}): ${ex.text.slice(0, 200)}`);
    snapshot.checks[id] = state;
  }
  saveSnapshot(file, snapshot);
  return { snapshot, recovered };
}
