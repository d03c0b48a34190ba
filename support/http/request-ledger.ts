/**
 * Every request the suite sends, across workers (when it was sent, which key as a short hash, which path, what came back), appended to a
 * run-scoped file as it is answered: the client paces by it, and the burst reads what its window may hold.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, openSync, readSync, statSync } from 'node:fs';
import { runFiles } from '../run/run-files';

/** Kept per key: the client compares every entry of the ledger with its key before each request. */
const tags = new Map<string, string>();
export const keyTag = (apiKey: string): string =>
  tags.get(apiKey) ?? tags.set(apiKey, createHash('sha256').update(apiKey).digest('hex').slice(0, 12)).get(apiKey)!;

export interface LedgerEntry {
  at: number;
  /** Hashes of every credential the Authorization value may carry (see credentialCandidates). */
  tags: string[];
  /** The value was exactly `Bearer <token>`. */
  bearer: boolean;
  method: string;
  /** The URL's path, without the query. */
  path: string;
  /** The answer's status; 0 when none came (a dropped connection). */
  status: number;
}

/** What an Authorization value may carry as a key: the token after the scheme (or the bare value), and what a Basic value decodes to. */
export function credentialCandidates(authorization: string | undefined): string[] {
  const value = authorization?.trim();
  if (!value) return [];
  const tokens = value.split(/\s+/);
  const out = new Set<string>(tokens.length > 1 ? tokens.slice(1) : tokens);
  for (const t of [...out]) {
    if (!/^[A-Za-z0-9+/]+=*$/.test(t) || t.length < 8) continue;
    const decoded = Buffer.from(t, 'base64').toString('utf8');
    if (!/^[\x21-\x7e]+$/.test(decoded)) continue;
    for (const part of decoded.split(':')) if (part) out.add(part);
  }
  return [...out];
}

/** A request as it was answered: its entry's time, method and status, its Authorization value and URL as sent. */
type AnsweredRequest = Pick<LedgerEntry, 'at' | 'method' | 'status'> & { authorization?: string; url: string };

const lineOf = (r: AnsweredRequest) =>
  [
    r.at,
    credentialCandidates(r.authorization).map(keyTag).join(',') || '-',
    /^Bearer\s+\S+$/i.test(r.authorization?.trim() ?? '') ? 'b' : '-',
    r.method.toUpperCase(),
    new URL(r.url).pathname.replace(/[\t\n\r]/g, ' '),
    r.status,
  ].join('\t');

/** Answered requests, in one write, so that workers' lines never interleave (O_APPEND); the burst writes its own after it, not during it. */
export function recordExchanges(requests: AnsweredRequest[]): void {
  const file = runFiles().ledger;
  if (file && requests.length) appendFileSync(file, `${requests.map(lineOf).join('\n')}\n`);
}

/**
 * What this process has read of a ledger: the file only grows, so each read takes only the whole lines appended since, and keeps
 * the entries in send order (a line is written at its answer, so lines arrive a little out of that order).
 */
let reading: { file: string; offset: number; entries: LedgerEntry[] } | undefined;

function caughtUp(file: string | undefined): LedgerEntry[] {
  if (!file) return [];
  if (reading?.file !== file) reading = { file, offset: 0, entries: [] };
  const r = reading;
  // Asked before every request: one stat when nothing was appended since, not an open and a read.
  const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  if (size <= r.offset) return r.entries;
  const fd = openSync(file, 'r');
  try {
    const pending = Buffer.alloc(size - r.offset);
    const end = pending.subarray(0, readSync(fd, pending, 0, pending.length, r.offset)).lastIndexOf(0x0a);
    if (end < 0) return r.entries;
    const fresh = pending
      .subarray(0, end)
      .toString('utf8')
      .split('\n')
      .map((line): LedgerEntry => {
        const [at, tags, bearer, method, path, status] = line.split('\t');
        return { at: Number(at), tags: tags === '-' ? [] : tags.split(','), bearer: bearer === 'b', method, path, status: Number(status) };
      });
    r.offset += end + 1;
    // Lines come nearly in send order: sorted again only when one arrives out of it (a nearly sorted array sorts in one pass).
    const inOrder = r.entries.length === 0 || fresh.every((e) => e.at >= r.entries[r.entries.length - 1].at);
    for (const e of fresh) r.entries.push(e);
    if (!inOrder || fresh.some((e, i) => i > 0 && e.at < fresh[i - 1].at)) r.entries.sort((a, b) => a.at - b.at);
    return r.entries;
  } finally {
    closeSync(fd);
  }
}

/** Every request recorded so far, by every worker of this run, in send order. */
export const readLedger = (file = runFiles().ledger): readonly LedgerEntry[] => caughtUp(file);

/** How many requests the ledger holds, every key and every worker: cheaper than reading them in order. */
export const ledgerSize = (file = runFiles().ledger): number => caughtUp(file).length;

export const carries = (e: Pick<LedgerEntry, 'tags'>, apiKey: string) => e.tags.includes(keyTag(apiKey));

/** When (epoch ms, ascending) the suite sent requests carrying `apiKey` since `since`, across all workers. */
export function sentTimes(apiKey: string, since: number, entries: readonly LedgerEntry[] = readLedger()): number[] {
  // The entries are in send order: the window's start is found by halving, not by reading every earlier request.
  let [lo, hi] = [0, entries.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid].at < since) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let i = lo; i < entries.length; i++) if (carries(entries[i], apiKey)) out.push(entries[i].at);
  return out;
}
