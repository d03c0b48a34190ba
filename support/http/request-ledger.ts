/**
 * An account of every request the suite sends to the target, per API key, across all workers: the
 * burst reads it to know how much of the rate-limit window the suite itself has already used.
 * One line per request, appended to a run-scoped file; keys are stored as short hashes, never as is.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

export const LEDGER_VARIABLE = 'CONTRACT_REQUEST_LEDGER';

export const keyTag = (apiKey: string) => createHash('sha256').update(apiKey).digest('hex').slice(0, 12);

export function recordRequest(apiKey: string | undefined, at = Date.now()): void {
  const file = process.env[LEDGER_VARIABLE];
  if (!file) return;
  appendFileSync(file, `${at} ${apiKey ? keyTag(apiKey) : '-'}\n`);
}

/** When (epoch ms, ascending) the suite sent requests with `apiKey` since `since`, across all workers. */
export function sentTimes(apiKey: string, since: number): number[] {
  const file = process.env[LEDGER_VARIABLE];
  if (!file || !existsSync(file)) return [];
  const tag = keyTag(apiKey);
  const times: number[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [at, t] = line.split(' ');
    if (t === tag && Number(at) >= since) times.push(Number(at));
  }
  return times.sort((a, b) => a - b);
}

/** Requests sent with `apiKey` since `since` (epoch ms), by every worker of this run. */
export const requestsSince = (apiKey: string, since: number): number => sentTimes(apiKey, since).length;
