/** One request and its response, as the suite saw them, how a person reads them in a report, and how to send it again. */
import { redact, REDACTED } from './redact';
import type { RawResponse } from './transport';

/** The transport's answer (status, headers, text, a byte order mark), with the request and the parsed body (JSON, else undefined). */
export type Exchange = RawResponse & {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  json: unknown;
  contentType: string;
  ms: number;
};

const trim = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more chars)` : text);

export const oneLine = (e: Exchange) => redact(`${e.method} ${e.url} → ${e.status} (${e.ms} ms)`);

/** Header lines; an Authorization value is never shown, whatever it is. The rest is redacted with the whole text. */
const headerLines = (headers: Record<string, string>) => Object.entries(headers).map(([k, v]) => `${k}: ${k.toLowerCase() === 'authorization' ? REDACTED : v}`);

export function describeExchange(e: Exchange, maxBody = 2000): string {
  const lines = [
    `${e.method} ${e.url}`,
    ...headerLines(e.requestHeaders),
    ...(e.requestBody ? ['', trim(e.requestBody, maxBody)] : []),
    '',
    `→ ${e.status} (${e.ms} ms)`,
    ...headerLines(e.headers),
    '',
    trim(e.text, maxBody),
  ];
  return redact(lines.join('\n'));
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The value a header is shown with in the command: secrets by name, the rest as sent (redacted). */
function shownHeader(name: string, value: string, secrets: { apiKey?: string; accountId?: string }): string {
  let v = value;
  if (secrets.apiKey) v = v.split(secrets.apiKey).join('$API_KEY');
  if (secrets.accountId) v = v.split(secrets.accountId).join('$ACCOUNT_ID');
  return name.toLowerCase() === 'authorization' && v === value ? `${v.split(' ')[0]} «redacted»` : redact(v);
}

/** A `curl` that sends a failing request again, with `$API_KEY` and `$ACCOUNT_ID` where the secrets were. */
export function curlOf(e: Pick<Exchange, 'method' | 'url' | 'requestHeaders' | 'requestBody'>, secrets: { apiKey?: string; accountId?: string } = {}): string {
  const parts = ['curl', '-sS', '-i'];
  if (e.method !== 'GET') parts.push('-X', e.method);
  parts.push(quote(redact(e.url)));
  for (const [k, v] of Object.entries(e.requestHeaders)) {
    // Double quotes where a variable must expand, single quotes otherwise.
    const shown = shownHeader(k, v, secrets);
    parts.push('-H', shown.includes('$') ? `"${k}: ${shown.replace(/"/g, '\\"')}"` : quote(`${k}: ${shown}`));
  }
  if (e.requestBody !== undefined) {
    const body = e.requestBody.length > 2000 ? `${e.requestBody.slice(0, 2000)}…` : e.requestBody;
    parts.push('--data-raw', quote(redact(body)));
  }
  return parts.join(' ');
}
