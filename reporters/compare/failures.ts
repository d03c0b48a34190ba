/**
 * Failures as the two matrices record them (the checks' own records), made comparable: long ids are
 * shortened, and the request is shown by its path.
 */
import type { MatrixFailure } from '../matrix-types';
import type { Failure, SideName } from './types';

const MAX = 120;

export const clip = (s: string, max = MAX) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Shortens GUIDs (check ids, account ids) to their first block: they differ between targets anyway. */
export const shortIds = (s: string) => s.replace(/\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '$1…');

/** A url as a path with its query ("/v1/runtimes/x?full=1"); a url that does not parse, as it is. */
export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

export function normaliseFailure(side: SideName, clause: string, record: MatrixFailure): Failure {
  // The title is the check's fixed sentence (its request is the exchange, a field of its own); ids are shortened only.
  const title = shortIds(record.title) || 'failed';
  const ex = record.exchange;
  return {
    side,
    title: clip(title),
    received: clip(shortIds(record.received)),
    allowed: clip(record.allowed),
    test: record.test,
    ...(record.place ? { place: record.place } : {}),
    ...(record.valueClass ? { valueClass: record.valueClass } : {}),
    ...(record.cell ? { cell: record.cell } : {}),
    ...(ex ? { exchange: { method: ex.method, path: clip(shortIds(pathOf(ex.url)), 90), status: ex.status, contentType: ex.contentType } } : {}),
  };
}

/** The failures of one side's clause row, normalised, each once. */
export function failuresOf(side: SideName, clause: string, raw: readonly MatrixFailure[] | undefined): Failure[] {
  const seen = new Set<string>();
  const out: Failure[] = [];
  for (const f of raw ?? []) {
    const n = normaliseFailure(side, clause, f);
    const key = `${n.test}|${n.title}|${n.received}|${requestOf(n)}`;
    if (seen.has(key)) continue;
    out.push(n);
    seen.add(key);
  }
  return out;
}

/** The request a failure is about, "GET /v1/runtimes/x → 200", or nothing. */
export const requestOf = (f: Failure) => (f.exchange ? `${f.exchange.method} ${f.exchange.path} → ${f.exchange.status}` : '');

/** "received …; allowed …" of a failure. */
export const receivedAllowed = (f: Failure) => `received ${f.received}; allowed ${f.allowed}`;

/** receivedAllowed, said once per clause: the same value again is "the same received and allowed". */
export function onceEach(): (f: Failure) => string {
  const said = new Set<string>();
  return (f) => {
    const text = receivedAllowed(f);
    if (!text || !said.has(text)) return (said.add(text), text);
    return 'received and allowed as above';
  };
}

/** A failure in a few words, for a clause whose responses were not recorded or answered alike. */
export function failurePhrase(f: Failure): string {
  // A check of a status receives the status and allows one ("404 with the ERR-1 body") or a class ("a 4xx status").
  const receivedStatus = /^\d{3}$/.test(f.received) ? Number(f.received) : undefined;
  const got = f.exchange?.status ?? receivedStatus;
  const expected = receivedStatus !== undefined ? /^([1-5]\d{2})(?: with |$)/.exec(f.allowed)?.[1] : undefined;
  // Title regex, a wording heuristic only: a check made without an exchange may name its request in its title.
  const named = f.exchange ? undefined : /^(GET|PUT|POST|PATCH|DELETE|HEAD) (\/\S*)/.exec(f.title);
  const on = f.exchange ? ` on ${f.exchange.method} ${f.exchange.path}` : named ? ` on ${named[1]} ${named[2]}` : '';
  // The other side verified the clause: it got what was expected.
  if (expected && got !== undefined && String(got) !== expected)
    return f.side === 'B' ? `status ${expected} vs ${got}${on}` : `status ${got} vs ${expected}${on}`;
  if (got !== undefined && /^a 4xx/.test(f.allowed)) return `${f.side}: ${got} where a 4xx is due${on}`;
  // Title regexes, wording heuristics only: a route's own limit (RL-4) receives "N served" and says "none refused" and the route only in its title.
  const burst = /(\d+) served, no 429/.exec(f.received) ?? /(\d+) requests? in [\d.]+ ?s,? none refused/.exec(f.title);
  if (burst) {
    const route = /^(GET|PUT|POST|PATCH|DELETE) (\S+?):/.exec(f.title);
    return `${f.side}: no 429 after ${burst[1]} requests${route ? ` to ${route[1]} ${route[2]}` : ''}`;
  }
  const received = f.received.length <= 24 ? ` (received ${f.received})` : '';
  return `${f.side}: ${clip(f.title, 72)}${received}`;
}

/** A skip reason in a few words: the part before its explanation. */
export const reasonPhrase = (side: SideName, reason: string | undefined) => `${side} skipped${reason ? `: ${clip(reason.split(/: |; /)[0], 60)}` : ''}`;
