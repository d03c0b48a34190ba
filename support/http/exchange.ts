/** One request and its response, as the suite saw them, and how a person reads them in a report. */
import { redact, redactHeaders } from './redact';

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

export function describeExchange(e: Exchange, maxBody = 2000): string {
  const lines = [
    `${e.method} ${e.url}`,
    ...Object.entries(redactHeaders(e.requestHeaders)).map(([k, v]) => `${k}: ${v}`),
    ...(e.requestBody ? ['', trim(e.requestBody, maxBody)] : []),
    '',
    `→ ${e.status} (${e.ms} ms)`,
    ...Object.entries(redactHeaders(e.headers)).map(([k, v]) => `${k}: ${v}`),
    '',
    trim(e.text, maxBody),
  ];
  return redact(lines.join('\n'));
}
