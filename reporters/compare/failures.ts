/** Failures as the two matrices record them (the checks' own records), made comparable: the request is shown by its path. */
import { uniqueBy } from '../unique';
import type { MatrixFailure } from '../matrix-types';
import type { Failure, SideName } from './types';

export const clip = (s: string, max = 120) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** A url as a path with its query ("/v1/runtimes/x?full=1"); a url that does not parse, as it is. */
function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

function normaliseFailure(side: SideName, record: MatrixFailure): Failure {
  const ex = record.exchange;
  const exchange = ex && { method: ex.method, path: clip(pathOf(ex.url), 90), status: ex.status, contentType: ex.contentType };
  return { ...record, side, title: clip(record.title || 'failed'), received: clip(record.received), allowed: clip(record.allowed), exchange };
}

/** The failures of one side's clause row, normalised, each once. */
export function failuresOf(side: SideName, raw: readonly MatrixFailure[] = []): Failure[] {
  return uniqueBy(
    raw.map((f) => normaliseFailure(side, f)),
    (n) => `${n.test}|${n.title}|${n.received}|${requestOf(n)}`,
  );
}

/** The request a failure is about, "GET /v1/runtimes/x → 200", or nothing. */
export const requestOf = (f: Failure) => (f.exchange ? `${f.exchange.method} ${f.exchange.path} → ${f.exchange.status}` : '');

/** A failure in a few words, for a clause whose responses were not recorded or answered alike: from the record's data, never its text. */
export function failurePhrase(f: Failure): string {
  const got = f.exchange?.status;
  const on = f.exchange ? ` on ${f.exchange.method} ${f.exchange.path}` : '';
  const want = f.expectedStatus;
  // The other side verified the clause: it got what was expected.
  if (typeof want === 'number' && got !== undefined && got !== want) return f.side === 'B' ? `status ${want} vs ${got}${on}` : `status ${got} vs ${want}${on}`;
  if (typeof want === 'string' && got !== undefined) return `${f.side}: ${got} where a ${want} is due${on}`;
  if (f.served !== undefined) return `${f.side}: no 429 after ${f.served} requests${on}`;
  const received = f.received.length <= 24 ? ` (received ${f.received})` : '';
  return `${f.side}: ${clip(f.title, 72)}${received}`;
}

/** A skip reason in a few words: the part before its explanation. */
export const reasonPhrase = (side: SideName, reason: string | undefined) => `${side} skipped${reason ? `: ${clip(reason.split(/: |; /)[0], 60)}` : ''}`;
