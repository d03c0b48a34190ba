/**
 * How the client's requests reach the target: node's own HTTP client, on keep-alive connections that a
 * worker's tests share. Not Playwright's request fixture: it costs a captured stack trace and a round
 * trip through Playwright's protocol per request, and it adds headers and re-encodes bodies of its own.
 * Nor undici: a worker sends a few hundred requests, all of them on cold code, and there node's client
 * costs a third of the CPU (and undici a tenth of a second more to load); the burst, which needs
 * throughput, has undici (support/rate-limit/burst.ts). The request is sent as the test wrote it: its
 * method, headers (names in their case) and body bytes; node adds Host, Content-Length and Connection.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

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

/** Idle connections close after this: a server may close its own soon after, and a reused one it closed fails. */
const IDLE_MS = 4_000;
const agents = { http: new HttpAgent({ keepAlive: true, timeout: IDLE_MS }), https: new HttpsAgent({ keepAlive: true, timeout: IDLE_MS }) };

/** Every header as sent (rawHeaders), not node's folded view, which keeps only the first of some repeated ones. */
function headersOf(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = res.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    out[name] = name in out ? `${out[name]}, ${raw[i + 1]}` : raw[i + 1];
  }
  return out;
}

export const sendRaw: Transport = (url, r) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const named = Object.keys(r.headers).some((k) => k.toLowerCase() === 'user-agent');
    const headers = named ? r.headers : { ...r.headers, 'user-agent': USER_AGENT };
    const options = { method: r.method, headers, agent: secure ? agents.https : agents.http, timeout: r.timeoutMs };
    const req = (secure ? httpsRequest : httpRequest)(target, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      // UTF-8, a byte order mark dropped, as a text() of fetch or undici reads it.
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: headersOf(res), text: new TextDecoder().decode(Buffer.concat(chunks)) }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${r.timeoutMs / 1000} s`)));
    req.on('error', reject);
    req.end(r.body);
  });
