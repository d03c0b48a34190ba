/** What the suite itself sent with a key that may still be in a window: this run's ledger, and the last run's record of its last window for a target that outlives the run. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { carries, readLedger, type LedgerEntry } from '../http/request-ledger';

const outcomeKind = (status: number | undefined) =>
  status === undefined || status === 0 ? 'unanswered' : status === 429 ? 'limited' : status >= 200 && status < 300 ? 'served' : 'refused';

/** Requests carrying `apiKey` sent at or after `since`; with `path`, only those to it (a route with a limit of its own). */
export function knownPrior(apiKey: string, since: number, options: { record?: LastRunRecord; path?: string } = {}) {
  const thisRun = readLedger().filter((e) => e.at >= since && carries(e, apiKey) && (!options.path || e.path === options.path));
  // The record keeps no paths: for a route of its own, any request of the last run with the key may count.
  const lastRun = (options.record?.requests ?? []).filter((e) => e.at >= since && carries(e, apiKey));
  const all = [...thisRun, ...lastRun];
  const kinds: Record<string, number> = {};
  for (const e of all) kinds[outcomeKind(e.status)] = (kinds[outcomeKind(e.status)] ?? 0) + 1;
  // times: when each was sent (epoch ms, ascending); kinds: by what came back (served, refused, limited, unanswered).
  return { count: all.length, thisRun: thisRun.length, lastRun: lastRun.length, times: all.map((e) => e.at).sort((x, y) => x - y), kinds };
}

export type KnownPrior = ReturnType<typeof knownPrior>;

/** When the suite last sent anything to the target (any key or none), this run or the last. */
export const lastActivity = (record?: LastRunRecord): number => Math.max(0, ...readLedger().map((e) => e.at), ...(record?.requests ?? []).map((e) => e.at));

export function describePrior(p: KnownPrior): string {
  const kinds = Object.entries(p.kinds)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  const from = [p.thisRun ? `${p.thisRun} of this run` : '', p.lastRun ? `${p.lastRun} of the last run (its record)` : ''].filter(Boolean).join(' and ');
  return `${p.count} request(s) with the key in the window (${from}: ${kinds})`;
}

export const LAST_RUN_FILE = 'rate-limit-last-run.json';

export interface LastRunRecord {
  /** BASE_URL of the run: a record of another target says nothing about this one. */
  target: string;
  writtenAt: number;
  windowSeconds: number;
  requests: Array<Pick<LedgerEntry, 'at' | 'tags' | 'bearer' | 'status'>>;
}

export function writeLastRun(reportDir: string, target: string, windowSeconds: number, entries: readonly LedgerEntry[], now = Date.now()): void {
  const since = now - windowSeconds * 1000 - 1000;
  const requests = entries.filter((e) => e.at >= since).map(({ at, tags, bearer, status }) => ({ at, tags, bearer, status }));
  mkdirSync(reportDir, { recursive: true });
  const record: LastRunRecord = { target, writtenAt: now, windowSeconds, requests };
  writeFileSync(join(reportDir, LAST_RUN_FILE), JSON.stringify(record));
}

export function readLastRun(reportDir: string, target: string): LastRunRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(join(reportDir, LAST_RUN_FILE), 'utf8')) as LastRunRecord;
    return record.target === target && Array.isArray(record.requests) ? record : undefined;
  } catch {
    return undefined;
  }
}
