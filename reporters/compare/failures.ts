/** Failures as the two matrices record them (the checks' own records), made comparable: the request is shown by its path. */
import { uniqueBy } from '../unique';
import type { MatrixFailure } from '../run-model';
import type { SideName } from './model';

export const clip = (s: string, max = 120) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** The failures of one side's clause row, each once, comparable: the request by its path with its query ("/v1/runtimes/x?full=1"). */
export function failuresOf(side: SideName, raw: readonly MatrixFailure[] = []) {
  const pathOf = (url: string) => (URL.canParse(url) ? `${new URL(url).pathname}${new URL(url).search}` : url);
  const failures = raw.map(({ exchange: ex, ...f }) => ({
    ...f,
    side,
    title: clip(f.title || 'failed'),
    received: clip(f.received),
    allowed: clip(f.allowed),
    exchange: ex && { method: ex.method, path: clip(pathOf(ex.url), 90), status: ex.status, contentType: ex.contentType },
  }));
  return uniqueBy(failures, (n) => `${n.test}|${n.title}|${n.received}|${requestOf(n)}`);
}

/** A failure of one side, as its record says, the request by its path. */
export type Failure = ReturnType<typeof failuresOf>[number];

/** The request a failure is about, "GET /v1/runtimes/x → 200", or nothing. */
export const requestOf = (f: { exchange?: { method: string; path: string; status: number } }) =>
  f.exchange ? `${f.exchange.method} ${f.exchange.path} → ${f.exchange.status}` : '';

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
