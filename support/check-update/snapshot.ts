/**
 * The snapshot of the checks the update tests change (CU-9), one file per target, written before the first
 * update so that the next run against the same target puts back what a run that died half-way changed.
 * A new worker of the same run (after a failed test) finds its run's id in the file and keeps it as it is.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { oneLine } from '../http/exchange';
import { SuiteError } from '../run/suite-error';
import { describeRestore, readCheck, restoreCheck, restored, type CheckAccess, type RestoreResult, type Send } from './restore';
import { isState, type CheckState } from './state';

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
  /** A run that could not put this leftover back: its other workers fail at once, without trying again. */
  unrestored?: { runId: string; message: string };
}

/** The file of the first versions, one for every target; read only when it names this target. */
export const LEGACY_SNAPSHOT_FILE = '.check-snapshot.json';

/** A short stable key of the target: its base URL ("embedded" for the embedded service) and the check ids. */
export function snapshotKey(baseUrl: string, embedded: boolean, ids: string[]): string {
  const where = embedded ? 'embedded' : baseUrl.replace(/\/+$/, '');
  return createHash('sha256')
    .update(`${where}|${[...ids].sort().join(',')}`)
    .digest('hex')
    .slice(0, 12);
}

export const snapshotPath = (reportDir: string, baseUrl: string, embedded: boolean, ids: string[]) =>
  join(reportDir, `.check-snapshot-${snapshotKey(baseUrl, embedded, ids)}.json`);

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

export interface TakenSnapshot {
  snapshot: SnapshotFile;
  /** The state of each check now, as the first update will find it. */
  current: Record<string, CheckState>;
  /** The restores of an earlier run's snapshot (empty when there was none). */
  recovered: RestoreResult[];
  /** True when the file was this run's own (a new worker of the same run): nothing was restored. */
  reused: boolean;
}

export interface SnapshotOptions extends CheckAccess {
  file: string;
  baseUrl: string;
  embedded: boolean;
  runId: string;
  ids: string[];
  send: Send;
  /** Where a file of the first versions may lie (one for all targets); used only if it names this target. */
  legacyFile?: string;
}

/** This target's pending snapshot: its own file, else a legacy file that names this same target. */
function pendingOf(o: SnapshotOptions): { pending?: SnapshotFile; legacy: boolean } {
  const own = loadSnapshot(o.file);
  if (own) return { pending: own, legacy: false };
  const old = o.legacyFile ? loadSnapshot(o.legacyFile) : undefined;
  const same = old && !old.embedded && !o.embedded && old.baseUrl === o.baseUrl && Object.keys(old.checks).every((id) => o.ids.includes(id));
  return same ? { pending: old, legacy: true } : { legacy: false };
}

/**
 * Reads the snapshot for a run and writes it, with this run's id, before the first update: this run's own file is kept, an earlier
 * run's leftover against the same real target is put back first (a SuiteError naming the file if it cannot be), else the checks are read now.
 */
export async function takeSnapshot(o: SnapshotOptions): Promise<TakenSnapshot> {
  const { file, baseUrl, embedded, runId, ids, routes, send } = o;
  const { pending, legacy } = pendingOf(o);
  const recovered: RestoreResult[] = [];
  const current: Record<string, CheckState> = {};
  const readNow = async (id: string) => {
    const { ex, state } = await readCheck(send, routes.readPath(id));
    if (!state)
      throw new SuiteError('cannot-test', `check update: check ${id} could not be read before the first update (${oneLine(ex)}): ${ex.text.slice(0, 200)}`);
    return state;
  };
  let snapshot: SnapshotFile;
  let reused = false;
  if (pending && !pending.embedded && pending.baseUrl !== baseUrl) {
    throw new SuiteError('cannot-test', `check update: ${file} holds a snapshot of checks on ${pending.baseUrl}, not ${baseUrl}; move it away or delete it`);
  }
  if (pending && pending.runId === runId) {
    // Another worker of this run wrote it: the checks may be changed by now, and that is this run's doing.
    reused = true;
    snapshot = pending;
    for (const id of Object.keys(pending.checks).filter((i) => ids.includes(i))) current[id] = await readNow(id);
  } else if (pending && !pending.embedded && !embedded) {
    if (pending.unrestored?.runId === runId) throw new SuiteError('cannot-test', pending.unrestored.message);
    const recovery: string[] = [];
    for (const [id, state] of Object.entries(pending.checks)) {
      const r = await restoreCheck(o, id, state, send);
      recovered.push(r);
      recovery.push(`left by an earlier run (${pending.savedAt}): ${describeRestore(r)}`);
    }
    const failed = recovered.filter((r) => !restored(r));
    if (failed.length) {
      const message =
        `check update: an earlier run against ${baseUrl} (${pending.savedAt}) left checks changed and putting them back failed again ` +
        `(${failed.map(describeRestore).join('; ')}); their values before that run are in ${legacy ? o.legacyFile : file}: ` +
        `put the checks back by hand, or delete that file to accept their current state`;
      // The values stay as they are; only this run's failure is added, for its other workers.
      saveSnapshot(legacy ? o.legacyFile! : file, { ...pending, unrestored: { runId, message } });
      throw new SuiteError('cannot-test', message);
    }
    for (const [id, state] of Object.entries(pending.checks)) if (ids.includes(id)) current[id] = structuredClone(state);
    snapshot = { ...pending, runId, recovery };
  } else {
    snapshot = { version: 1, baseUrl, embedded, savedAt: new Date().toISOString(), runId, checks: {} };
  }
  for (const id of ids.filter((i) => !(i in snapshot.checks))) {
    const state = await readNow(id);
    snapshot.checks[id] = state;
    current[id] = structuredClone(state);
  }
  saveSnapshot(file, snapshot);
  if (legacy && o.legacyFile) removeSnapshot(o.legacyFile);
  return { snapshot, current, recovered, reused };
}
