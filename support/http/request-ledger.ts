/**
 * Every request the suite sends, across workers (when, which key as a short hash, which path, what came back), appended to a run-scoped file
 * when sent and when answered: the client paces by it, and the burst reads what its window may hold.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { runFiles } from '../run/run-files';

const tags = new Map<string, string>();
export const keyTag = (apiKey: string): string => {
  let tag = tags.get(apiKey);
  if (tag === undefined) tags.set(apiKey, (tag = createHash('sha256').update(apiKey).digest('hex').slice(0, 12)));
  return tag;
};

export interface LedgerEntry {
  at: number;
  /** Hashes of every credential the Authorization value may carry (see credentialCandidates). */
  tags: string[];
  /** The value was exactly `Bearer <token>`. */
  bearer: boolean;
  method: string;
  /** The URL's path, without the query. */
  path: string;
  /** The answer's status; 0 when none came (a dropped connection); undefined while in flight. */
  status?: number;
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

const isBearer = (authorization: string | undefined) => /^Bearer\s+\S+$/i.test(authorization?.trim() ?? '');

let sequence = 0;
const nextId = () => `${process.pid}.${++sequence}`;
const clean = (s: string) => s.replace(/[\t\n\r]/g, ' ');

/** One descriptor per ledger file, kept open for appending; one write per call, so that workers' lines never interleave (O_APPEND). */
let appending: { file: string; fd: number } | undefined;
function append(lines: string[]): void {
  const file = runFiles().ledger;
  if (!file || !lines.length) return;
  if (appending?.file !== file) {
    if (appending) closeSync(appending.fd);
    appending = { file, fd: openSync(file, 'a') };
  }
  writeSync(appending.fd, `${lines.join('\n')}\n`);
}

interface SentRequest {
  at: number;
  authorization?: string;
  method: string;
  url: string;
}

const sentLine = (id: string, r: SentRequest) =>
  [
    'S',
    id,
    r.at,
    credentialCandidates(r.authorization).map(keyTag).join(',') || '-',
    isBearer(r.authorization) ? 'b' : '-',
    r.method.toUpperCase(),
    clean(new URL(r.url).pathname),
  ].join('\t');
const answerLine = (id: string, status: number) => ['A', id, status].join('\t');

/** Records a request as it leaves; returns the id its answer is recorded under. */
export function recordSent(r: SentRequest): string {
  const id = nextId();
  append([sentLine(id, r)]);
  return id;
}

export function recordAnswer(id: string, status: number): void {
  append([answerLine(id, status)]);
}

/** Requests and their answers at once, in one write (the burst writes its requests after it, not during it). */
export function recordExchanges(exchanges: (SentRequest & { status: number })[]): void {
  append(
    exchanges.flatMap((r) => {
      const id = nextId();
      return [sentLine(id, r), answerLine(id, r.status)];
    }),
  );
}

/** What this process has read of a ledger: the file only grows, so each read parses only the lines appended since. */
interface Reading {
  file: string;
  fd: number;
  /** Bytes consumed: up to the end of the last whole line. */
  offset: number;
  sent: Map<string, LedgerEntry>;
  sorted?: LedgerEntry[];
}
let reading: Reading | undefined;

function readNewLines(r: Reading): void {
  const pending = Buffer.alloc(Math.max(0, fstatSync(r.fd).size - r.offset));
  const end = pending.subarray(0, readSync(r.fd, pending, 0, pending.length, r.offset)).lastIndexOf(0x0a);
  if (end < 0) return;
  r.offset += end + 1;
  r.sorted = undefined;
  for (const line of pending.subarray(0, end).toString('utf8').split('\n')) {
    const f = line.split('\t');
    if (f[0] === 'S' && f.length >= 7) {
      r.sent.set(f[1], { at: Number(f[2]), tags: f[3] === '-' ? [] : f[3].split(','), bearer: f[4] === 'b', method: f[5], path: f[6] });
    } else if (f[0] === 'A' && f.length >= 3) {
      const e = r.sent.get(f[1]);
      if (e) e.status = Number(f[2]);
    }
  }
}

function caughtUp(file: string | undefined): Reading | undefined {
  if (!file) return undefined;
  if (reading?.file !== file) {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return undefined; // nothing recorded yet
    }
    if (reading) closeSync(reading.fd);
    reading = { file, fd, offset: 0, sent: new Map() };
  }
  readNewLines(reading);
  return reading;
}

/** Every request recorded so far, by every worker of this run, in send order. */
export function readLedger(file = runFiles().ledger): readonly LedgerEntry[] {
  const r = caughtUp(file);
  if (!r) return [];
  r.sorted ??= [...r.sent.values()].sort((a, b) => a.at - b.at);
  return r.sorted;
}

/** How many requests the ledger holds, every key and every worker: cheaper than reading them in order. */
export const ledgerSize = (file = runFiles().ledger): number => caughtUp(file)?.sent.size ?? 0;

export const carries = (e: Pick<LedgerEntry, 'tags'>, apiKey: string) => e.tags.includes(keyTag(apiKey));

/** When (epoch ms, ascending) the suite sent requests carrying `apiKey` since `since`, across all workers. */
export function sentTimes(apiKey: string, since: number, entries: readonly LedgerEntry[] = readLedger()): number[] {
  return entries.filter((e) => e.at >= since && carries(e, apiKey)).map((e) => e.at);
}
