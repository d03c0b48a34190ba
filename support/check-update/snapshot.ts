/**
 * Snapshot and restore of the checks the update tests change (CU-9). The full state is read through the
 * GET of the check path; a restore sends back the writable properties (those of the update body schema)
 * that the snapshot holds, and is verified by reading the check again. The snapshot is written to a file
 * before the first update, so that a run that dies half-way is repaired by the next run against the
 * same target, and removed once a restore has been verified.
 *
 * The file carries the id of the run that wrote it. When a test fails, Playwright goes on in a new
 * worker, which sets the file up again: a snapshot of its own run is the state before the run and is
 * kept as it is (the checks are read again for the current state, never "restored" half-way through
 * the run); only a snapshot of an earlier run is put back first.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { CallOptions } from '../http/client';
import type { Exchange } from '../http/exchange';
import { oneLine } from '../http/exchange';
import type { SpecOperation } from '../spec/spec';
import { SPEC_CACHE_VARIABLE } from '../spec/spec-cache';
import { jsonBodySchema, schemaProperties } from '../spec/target';

export type CheckState = Record<string, unknown>;

/** Sends one request to the target; callers decide whether it goes through the contract checks. */
export type Send = (method: string, path: string, options?: CallOptions) => Promise<Exchange>;

export interface SnapshotFile {
  version: 1;
  baseUrl: string;
  /** The embedded service dies with its run: a snapshot of it is worthless to the next run. */
  embedded: boolean;
  savedAt: string;
  /** The run that wrote (or took over) the file; absent in files of older versions: an earlier run. */
  runId?: string;
  /** What putting back an earlier run's snapshot did, for CU-9 in whichever worker runs it. */
  recovery?: string[];
  /** Full state of each check as read before the first update, by id. */
  checks: Record<string, CheckState>;
}

export const snapshotPath = (reportDir: string) => join(reportDir, '.check-snapshot.json');

/**
 * The id of the current run, the same in every worker of it: the run-unique spec cache file that
 * global setup hands to the workers; without global setup, the runner process (the workers' parent).
 */
export function currentRunId(env: NodeJS.ProcessEnv = process.env): string {
  return env[SPEC_CACHE_VARIABLE] || `runner ${process.ppid} on ${hostname()}`;
}

/** How a check is read and updated: the update's method as the spec declares it, paths relative to BASE_URL. */
export interface CheckRoutes {
  method: string;
  readPath: (id: string) => string;
  updatePath: (id: string) => string;
}

/**
 * These properties constrain one another (frequencyOffset is checked against the frequency and check
 * type the check has after the update), so a restore sends them together or not at all. The published
 * names; a target that names them otherwise passes its own (see update-vocabulary).
 */
export const COUPLED = ['checkType', 'frequency', 'frequencyOffset'];

// ---------------------------------------------------------------------------------------------------
// Comparing states

/** The update body schema's property names: what a client may write, hence what a restore sends. */
export function writableProperties(updateOp: SpecOperation | undefined): string[] {
  return Object.keys(schemaProperties(jsonBodySchema(updateOp)));
}

/**
 * A value written so that equal values (as sameValue sees them) write the same: object keys in a
 * stable order, null and absent properties left out, and array items sorted by their own writing.
 */
export function canonicalJson(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).sort().join(',')}]`;
  if (typeof v === 'object') {
    const keys = Object.keys(v as object).filter((k) => (v as CheckState)[k] !== undefined && (v as CheckState)[k] !== null).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as CheckState)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? String(v);
}

/**
 * Equality as a reader of the document sees it: null and absent are the same "no value", and arrays
 * (of plain values and of objects alike) are compared as multisets (a target may return locations or
 * alert channel subscriptions in its own order).
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return canonicalJson(a) === canonicalJson(b);
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
  routes: CheckRoutes,
  id: string,
  snapshot: CheckState,
  writable: string[],
  query?: Record<string, string>,
  coupled: string[] = COUPLED,
): Promise<RestoreResult> {
  const path = routes.readPath(id);
  const before = await readCheck(read, path);
  if (!before.state) return { id, changed: [], remaining: [], steps: [], error: `could not read the check (${oneLine(before.ex)})` };
  const changed = changedProperties(snapshot, before.state, writable);
  const result: RestoreResult = { id, changed, remaining: changed, steps: [] };
  if (changed.length === 0) return result;
  const attempts = [restoreBody(snapshot, writable), restoreBody(snapshot, writable, [...changed, ...coupled])];
  for (const body of attempts) {
    const ex = await write(routes.method, routes.updatePath(id), { body, query });
    result.steps.push(`${routes.method} ${Object.keys(body).length} properties → ${ex.status}`);
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

export interface TakenSnapshot {
  snapshot: SnapshotFile;
  /** The state of each check now, as the first update will find it. */
  current: Record<string, CheckState>;
  /** The restores of an earlier run's snapshot (empty when there was none). */
  recovered: RestoreResult[];
  /** True when the file was this run's own (a new worker of the same run): nothing was restored. */
  reused: boolean;
}

/**
 * Reads the snapshot for a run. The file of this same run (written by an earlier worker) is kept as it
 * is, and the checks are read for their current state. The pending one of an earlier (interrupted) run
 * against the same target is restored first and kept, as the state the checks had before any run
 * changed them; a restore that fails does not stop the run (the checks are read as they are, and the
 * final restore, CU-9, reports what is still different). Otherwise the checks are read now. The file is
 * written, with this run's id, before this returns, hence before the first update.
 */
export async function takeSnapshot(options: {
  file: string;
  baseUrl: string;
  embedded: boolean;
  runId: string;
  ids: string[];
  routes: CheckRoutes;
  send: Send;
  writable: string[];
  query?: Record<string, string>;
  /** The coupled properties by the target's names (default: the published ones). */
  coupled?: string[];
}): Promise<TakenSnapshot> {
  const { file, baseUrl, embedded, runId, ids, routes, send, writable, query, coupled } = options;
  const pending = loadSnapshot(file);
  const recovered: RestoreResult[] = [];
  const current: Record<string, CheckState> = {};
  const readNow = async (id: string) => {
    const { ex, state } = await readCheck(send, routes.readPath(id));
    if (!state) throw new CheckUnreadable(`check ${id} could not be read (${oneLine(ex)}): ${ex.text.slice(0, 200)}`);
    return state;
  };
  let snapshot: SnapshotFile;
  let reused = false;
  if (pending && pending.baseUrl === baseUrl && pending.runId === runId) {
    // Another worker of this run wrote it: the checks may be changed by now, and that is this run's doing.
    reused = true;
    snapshot = pending;
    for (const id of Object.keys(pending.checks).filter((i) => ids.includes(i))) current[id] = await readNow(id);
  } else if (pending && pending.baseUrl === baseUrl) {
    const recovery: string[] = [];
    for (const [id, state] of Object.entries(pending.checks)) {
      const r = await restoreCheck(send, send, routes, id, state, writable, query, coupled);
      recovered.push(r);
      recovery.push(`left by an earlier run (${pending.savedAt}): ${describeRestore(r)}`);
      if (ids.includes(id)) current[id] = restored(r) ? structuredClone(state) : await readNow(id);
    }
    snapshot = { ...pending, runId, recovery };
  } else if (pending && !pending.embedded) {
    // Another real target's checks are waiting to be put back: never overwrite that.
    throw new SnapshotConflict(
      `${file} holds a snapshot of checks on ${pending.baseUrl} from ${pending.savedAt} that was never restored; ` +
        `run the suite against that BASE_URL once to restore it, or delete the file`,
    );
  } else {
    snapshot = { version: 1, baseUrl, embedded, savedAt: new Date().toISOString(), runId, checks: {} };
  }
  for (const id of ids.filter((i) => !(i in snapshot.checks))) {
    const state = await readNow(id);
    snapshot.checks[id] = state;
    current[id] = structuredClone(state);
  }
  saveSnapshot(file, snapshot);
  return { snapshot, current, recovered, reused };
}
