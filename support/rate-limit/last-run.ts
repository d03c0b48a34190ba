/** The last run's requests of its last window, for a target that outlives the run: a run started seconds later must not read them as a lower limit. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LedgerEntry } from '../http/request-ledger';

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

/** The last run's record for this target, if there is one. */
export function readLastRun(reportDir: string, target: string): LastRunRecord | undefined {
  const file = join(reportDir, LAST_RUN_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as LastRunRecord;
    return record.target === target && Array.isArray(record.requests) ? record : undefined;
  } catch {
    return undefined;
  }
}
