/** One request and its response, as the suite saw them, and how a person reads them in a report. */
import { redact, REDACTED } from './redact';

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
  contentType: string;
  ms: number;
}

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
