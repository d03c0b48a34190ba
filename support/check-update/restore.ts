/** Reading a check and putting it back as the snapshot has it (CU-9, and after a cell that changed what it must not), verified by a read. */
import type { CallOptions } from '../http/client';
import type { Exchange } from '../http/exchange';
import { oneLine } from '../http/exchange';
import { changedProperties, isState, restoreBody, type CheckState } from './state';

/** Sends one request to the target; callers decide whether it goes through the contract checks. */
export type Send = (method: string, path: string, options?: CallOptions) => Promise<Exchange>;

/** How a check is read and updated: the update's method as the spec declares it, paths relative to BASE_URL. */
export interface CheckRoutes {
  method: string;
  readPath: (id: string) => string;
  updatePath: (id: string) => string;
}

/** How the family reads a check and puts it back. */
export interface CheckAccess {
  routes: CheckRoutes;
  /** The update body schema's properties: what a restore sends and what a read-back compares. */
  writable: string[];
  /** The query every update carries (the auto-subscribe parameter, false). */
  query?: Record<string, string>;
  /** Properties that constrain one another (frequencyOffset, frequency, check type), by the target's names: a restore sends them together or not at all. */
  coupled: string[];
}

export async function readCheck(send: Send, path: string): Promise<{ ex: Exchange; state?: CheckState }> {
  const ex = await send('GET', path);
  return { ex, state: ex.status === 200 && isState(ex.json) ? ex.json : undefined };
}

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
  /** The state last read (after the restore, when one was sent). */
  state?: CheckState;
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

/** Puts one check back as the snapshot has it, each attempt verified by a read: the whole writable state, else (refused) only what differs and its coupled properties. */
export async function restoreCheck(a: CheckAccess, id: string, snapshot: CheckState, read: Send, write: Send = read): Promise<RestoreResult> {
  const { routes, writable, query, coupled } = a;
  const path = routes.readPath(id);
  const before = await readCheck(read, path);
  if (!before.state) return { id, changed: [], remaining: [], steps: [], error: `could not read the check (${oneLine(before.ex)})` };
  const changed = changedProperties(snapshot, before.state, writable);
  const result: RestoreResult = { id, changed, remaining: changed, steps: [], state: before.state };
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
    result.state = after.state;
    result.remaining = changedProperties(snapshot, after.state, writable);
    if (result.remaining.length === 0) break;
  }
  return result;
}
