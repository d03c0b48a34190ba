/**
 * The snapshot of the checks the update tests change (CU-9), one file per target, written before the first update so that the next
 * run against the same target puts back what a run that died half-way changed; and putting a check back as a snapshot has it, verified
 * by a read. A new worker of the same run (after a failed test) finds its run's id in the file and keeps it as it is.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CallOptions } from '../http/client';
import { oneLine, type Exchange } from '../http/exchange';
import { SuiteError } from '../run/suite-error';
import type { UpdateShape } from './session';
import { changedProperties, isState, restoreBody, type CheckState } from './state';

/** Sends one request to the target; callers decide whether it goes through the contract checks. */
export type Send = (method: string, path: string, options?: CallOptions) => Promise<Exchange>;

/** How the family reads a check and puts it back (session.ts). */
export type CheckAccess = Pick<UpdateShape, 'routes' | 'writable' | 'query' | 'coupled'>;

export async function readCheck(send: Send, path: string): Promise<{ ex: Exchange; state?: CheckState }> {
  const ex = await send('GET', path);
  return { ex, state: ex.status === 200 && isState(ex.json) ? ex.json : undefined };
}

export type RestoreResult = Awaited<ReturnType<typeof restoreCheck>>;

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

/** Puts one check back as the snapshot has it, each attempt verified by a read: the whole writable state, else (refused) only what differs and its coupled properties. */
export async function restoreCheck(a: CheckAccess, id: string, snapshot: CheckState, read: Send, write: Send = read) {
  const { routes, writable, query, coupled } = a;
  const path = routes.readPath(id);
  const before = await readCheck(read, path);
  const changed = before.state ? changedProperties(snapshot, before.state, writable) : [];
  // What differed before, what still differs after (none: restored), what was sent, why the check could not be read or put back, the last state read.
  const error = before.state ? undefined : `could not read the check (${oneLine(before.ex)})`;
  const result = { id, changed, remaining: changed, steps: [] as string[], error, state: before.state, before: before.state };
  if (!before.state || changed.length === 0) return result;
  const attempts = [restoreBody(snapshot, writable), restoreBody(snapshot, writable, [...changed, ...coupled])];
  for (const body of attempts) {
    const ex = await write(routes.method, routes.updatePath(id), { body, query });
    result.steps.push(`${routes.method} ${Object.keys(body).length} properties → ${ex.status}`);
    const after = ex.status >= 200 && ex.status < 300 ? await readCheck(read, path) : undefined;
    result.error = !after
      ? `the target refused the restore (${oneLine(ex)}): ${ex.text.slice(0, 300)}`
      : !after.state
        ? `could not read the check back (${oneLine(after.ex)})`
        : undefined;
    if (!after?.state) continue;
    result.state = after.state;
    result.remaining = changedProperties(snapshot, after.state, writable);
    if (result.remaining.length === 0) break;
  }
  return result;
}

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

/** The file of one target's check: named by a short stable key of its base URL ("embedded" for the embedded service) and the check's id. */
export function snapshotPath(reportDir: string, baseUrl: string, embedded: boolean, id: string): string {
  const where = embedded ? 'embedded' : baseUrl.replace(/\/+$/, '');
  return join(reportDir, `.check-snapshot-${createHash('sha256').update(`${where}|${id}`).digest('hex').slice(0, 12)}.json`);
}

export function loadSnapshot(file: string): SnapshotFile | undefined {
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

/**
 * Reads the snapshot for a run and writes it, with this run's id, before the first update: this run's own file is kept, an earlier
 * run's leftover against the same real target is put back first (a SuiteError naming the file if it cannot be), else the check is read now.
 */
export async function takeSnapshot(o: CheckAccess & { file: string; baseUrl: string; embedded: boolean; runId: string; id: string; send: Send }) {
  const { file, baseUrl, embedded, runId, id, routes, send } = o;
  const pending = loadSnapshot(file);
  const readNow = async () => {
    const { ex, state } = await readCheck(send, routes.readPath(id));
    if (!state)
      throw new SuiteError('cannot-test', `check update: check ${id} could not be read before the first update (${oneLine(ex)}): ${ex.text.slice(0, 200)}`);
    return state;
  };
  if (pending && !pending.embedded && pending.baseUrl !== baseUrl) {
    throw new SuiteError('cannot-test', `check update: ${file} holds a snapshot of checks on ${pending.baseUrl}, not ${baseUrl}; move it away or delete it`);
  }
  // Another worker of this run wrote it: the check may be changed by now, and that is this run's doing.
  if (pending?.runId === runId) {
    const kept = `this run's snapshot of ${pending.savedAt} kept (a new worker after a failed test); the checks were read as they are now`;
    return { snapshot: pending, current: await readNow(), notes: [kept] };
  }
  const recovered: RestoreResult[] = [];
  let snapshot: SnapshotFile = { version: 1, baseUrl, embedded, savedAt: new Date().toISOString(), runId, checks: {} };
  if (pending && !pending.embedded && !embedded) {
    if (pending.unrestored?.runId === runId) throw new SuiteError('cannot-test', pending.unrestored.message);
    for (const [checkId, state] of Object.entries(pending.checks)) recovered.push(await restoreCheck(o, checkId, state, send));
    const failed = recovered.filter((r) => !restored(r));
    if (failed.length) {
      const message =
        `check update: an earlier run against ${baseUrl} (${pending.savedAt}) left checks changed and putting them back failed again ` +
        `(${failed.map(describeRestore).join('; ')}); their values before that run are in ${file}: ` +
        `put the checks back by hand, or delete that file to accept their current state`;
      // The values stay as they are; only this run's failure is added, for its other workers.
      saveSnapshot(file, { ...pending, unrestored: { runId, message } });
      throw new SuiteError('cannot-test', message);
    }
    snapshot = { ...pending, runId, recovery: recovered.map((r) => `left by an earlier run (${pending.savedAt}): ${describeRestore(r)}`) };
  }
  snapshot.checks[id] ??= await readNow();
  saveSnapshot(file, snapshot);
  return { snapshot, current: structuredClone(snapshot.checks[id]), notes: snapshot.recovery ?? [] };
}
