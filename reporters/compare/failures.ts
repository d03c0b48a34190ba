/**
 * Failures as the two matrices record them, made comparable: records are preferred; a line of text
 * ("title (received …; allowed …)", the older form) is split into the same parts. Titles lose what
 * differs from run to run or from target to target (timings, hosts) and long ids are shortened.
 */
import type { Failure, FailureInput, SideName } from './types';

const MAX = 120;

export const clip = (s: string, max = MAX) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Shortens GUIDs (check ids, account ids) to their first block: they differ between targets anyway. */
export const shortIds = (s: string) => s.replace(/\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '$1…');

/** A title without timings and without the host in front of paths. */
export const cleanTitle = (s: string) =>
  shortIds(s.replace(/ \(\d+ ms\)/g, '').replace(/\bhttps?:\/\/[^\s/]+(?=\/)/g, '').replace(/\s+/g, ' ').trim());

function split(text: string): FailureInput {
  const at = text.lastIndexOf(' (received ');
  if (at < 0 || !text.endsWith(')')) return { title: text };
  const rest = text.slice(at + ' (received '.length, -1);
  const sep = rest.lastIndexOf('; allowed ');
  if (sep < 0) return { title: text };
  return { title: text.slice(0, at), received: rest.slice(0, sep), allowed: rest.slice(sep + '; allowed '.length) };
}

/** The request a title quotes at its end, "… (GET /v1/runtimes/x → 200)": taken out of the title. */
const QUOTED_REQUEST = / \((GET|PUT|POST|PATCH|DELETE|HEAD) (\S+) → (\d{3})\)$/;

export function normaliseFailure(side: SideName, clause: string, input: string | FailureInput): Failure {
  const record = { ...(typeof input === 'string' ? split(input) : input) };
  let title = cleanTitle(String(record.title ?? '').replace(new RegExp(`^${clause}: `), ''));
  const quoted = QUOTED_REQUEST.exec(title);
  if (quoted) {
    title = title.slice(0, quoted.index);
    record.exchange ??= { method: quoted[1], path: quoted[2], status: Number(quoted[3]), contentType: '' };
  }
  title ||= 'failed';
  return {
    side,
    title: clip(title),
    ...(record.received !== undefined ? { received: clip(shortIds(String(record.received))) } : {}),
    ...(record.allowed !== undefined ? { allowed: clip(String(record.allowed)) } : {}),
    ...(record.test ? { test: record.test } : {}),
    ...(record.valueClass ? { valueClass: record.valueClass } : {}),
    ...(record.exchange ? { exchange: { ...record.exchange, path: clip(shortIds(record.exchange.path), 90) } } : {}),
  };
}

/** The failures of one side's clause row, normalised, each once. */
export function failuresOf(side: SideName, clause: string, raw: ReadonlyArray<string | FailureInput> | undefined): Failure[] {
  const seen = new Set<string>();
  const out: Failure[] = [];
  for (const f of raw ?? []) {
    const n = normaliseFailure(side, clause, f);
    const key = `${n.test ?? ''}|${n.title}|${n.received ?? ''}|${requestOf(n)}`;
    if (!seen.has(key)) out.push(n), seen.add(key);
  }
  return out;
}

/** The request a failure is about, "GET /v1/runtimes/x → 200", or nothing. */
export const requestOf = (f: Failure) => (f.exchange ? `${f.exchange.method} ${f.exchange.path} → ${f.exchange.status}` : '');

/** "received …; allowed …" of a failure, or nothing. */
export const receivedAllowed = (f: Failure) =>
  [f.received !== undefined ? `received ${f.received}` : '', f.allowed !== undefined ? `allowed ${f.allowed}` : ''].filter(Boolean).join('; ');

/** receivedAllowed, said once per clause: the same value again is "the same received and allowed". */
export function onceEach(): (f: Failure) => string {
  const said = new Set<string>();
  return (f) => {
    const text = receivedAllowed(f);
    if (!text || !said.has(text)) return said.add(text), text;
    return 'received and allowed as above';
  };
}

/** A failure in a few words, for a clause whose responses were not recorded or answered alike. */
export function failurePhrase(f: Failure): string {
  const got = f.exchange?.status ?? (/^\d{3}$/.test(f.received ?? '') ? Number(f.received) : undefined);
  const request = /^(GET|PUT|POST|PATCH|DELETE|HEAD) (\/\S*)/.exec(f.title);
  const on = request ? ` on ${request[1]} ${request[2]}` : f.exchange ? ` on ${f.exchange.method} ${f.exchange.path}` : '';
  const expected = /did not answer (\d{3})\b/.exec(f.title)?.[1];
  // The other side verified the clause: it got what was expected.
  if (expected && got !== undefined && String(got) !== expected) return f.side === 'B' ? `status ${expected} vs ${got}${on}` : `status ${got} vs ${expected}${on}`;
  if (got !== undefined && /^a 4xx/.test(f.allowed ?? '')) return `${f.side}: ${got} where a 4xx is due${on}`;
  const burst = /(\d+) requests? in [\d.]+ ?s,? none refused/.exec(f.title) ?? /(\d+) served, no 429/.exec(f.received ?? '');
  if (burst) {
    const route = /^(GET|PUT|POST|PATCH|DELETE) (\S+?):/.exec(f.title);
    return `${f.side}: no 429 after ${burst[1]} requests${route ? ` to ${route[1]} ${route[2]}` : ''}`;
  }
  const received = f.received !== undefined && f.received.length <= 24 ? ` (received ${f.received})` : '';
  return `${f.side}: ${clip(f.title, 72)}${received}`;
}

/** A skip reason in a few words: the part before its explanation. */
export const reasonPhrase = (side: SideName, reason: string | undefined) => `${side} skipped${reason ? `: ${clip(reason.split(/: |; /)[0], 60)}` : ''}`;
