/**
 * How the client's requests reach the target: undici, on keep-alive connections that a worker's tests
 * share. Not Playwright's request fixture: it costs a captured stack trace and a round trip through
 * Playwright's protocol per request (most of a contract run's CPU went there), and it adds headers and
 * re-encodes bodies of its own. Here the request is sent as the test wrote it, byte for byte.
 */
import { undici } from './undici';
import type { Agent } from 'undici';

export interface RawRequest {
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  timeoutMs: number;
}

export interface RawResponse {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  text: string;
}

export type Transport = (url: string, request: RawRequest) => Promise<RawResponse>;

/** Who is asking, for the logs and firewalls of a staging deployment. */
const USER_AGENT = 'monitoring-api-contract-suite';

let agent: Agent | undefined;

export const sendRaw: Transport = async (url, r) => {
  const { Agent, request } = undici();
  agent ??= new Agent({ keepAliveTimeout: 4_000, connect: { timeout: r.timeoutMs } });
  const named = (name: string) => Object.keys(r.headers).some((k) => k.toLowerCase() === name);
  const res = await request(url, {
    method: r.method as 'GET',
    headers: named('user-agent') ? r.headers : { ...r.headers, 'user-agent': USER_AGENT },
    body: r.body,
    dispatcher: agent,
    headersTimeout: r.timeoutMs,
    bodyTimeout: r.timeoutMs,
  });
  const text = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return { status: res.statusCode, headers, text };
};
