/**
 * Node's own HTTP client on keep-alive connections a worker's tests share, sending each request as the test wrote it (Playwright's request
 * fixture adds headers and re-encodes bodies).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

export interface RawResponse {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  text: string;
  /** The body began with a UTF-8 byte order mark (dropped from `text`), which RFC 8259 forbids a sender. */
  bom?: true;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Who is asking, for the logs and firewalls of a staging deployment. */
const USER_AGENT = 'monitoring-api-contract-suite';

/** A header's value, its name in any case (`name` in lower case). */
export const headerValue = (headers: Record<string, string>, name: string): string | undefined =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

/** The headers, with the suite's User-Agent unless they name one. */
export const withUserAgent = <H extends Record<string, string | string[]>>(headers: H): H =>
  Object.keys(headers).some((k) => k.toLowerCase() === 'user-agent') ? headers : { ...headers, 'user-agent': USER_AGENT };

/**
 * What real clients accept (fetch, browsers, Playwright's request): a target may compress for them and must say so in Content-Encoding.
 * A body is decoded by what that header names; a body it does not name stays as it came, and a compressed one then reads as no JSON.
 */
export const ACCEPT_ENCODING = 'gzip, deflate, br';
const DECODERS: Record<string, (b: Buffer) => Buffer> = { gzip: gunzipSync, 'x-gzip': gunzipSync, deflate: inflateSync, br: brotliDecompressSync };

/** The body as the Content-Encoding header says it was coded (a coding it does not name, or a body that is not what it says: as it came). */
function decoded(body: Buffer, encoding: string | undefined): Buffer {
  const codings = (encoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  try {
    return codings.reduceRight((b, c) => (DECODERS[c] ? DECODERS[c](b) : b), body);
  } catch {
    return body;
  }
}

/** The headers, with what real clients accept unless they name it. */
const withAcceptEncoding = <H extends Record<string, string | string[]>>(headers: H): H =>
  Object.keys(headers).some((k) => k.toLowerCase() === 'accept-encoding') ? headers : { ...headers, 'accept-encoding': ACCEPT_ENCODING };

/** Idle connections close after this: a server may close its own soon after, and a reused one it closed fails. */
const IDLE_MS = 4_000;

/** Keep-alive connections, both schemes; at most `maxSockets` at once to an origin (unbounded when unset). */
export type Connections = ReturnType<typeof keepAliveConnections>;

export function keepAliveConnections(maxSockets?: number) {
  const options = { keepAlive: true, timeout: IDLE_MS, ...(maxSockets ? { maxSockets } : {}) };
  const http = new HttpAgent(options);
  const https = new HttpsAgent(options);
  // Requests sent after close() open new connections.
  return { http, https, close: () => (http.destroy(), https.destroy()) };
}

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

/** How long an answer may follow the failed write of a body it refused. */
const ANSWER_AFTER_WRITE_ERROR_MS = 2_000;

/** The worker's shared connections. */
const connections = keepAliveConnections();

/**
 * `headers`: a list value is sent as that many header lines. `asWritten`: the path and query as the URL
 * has them, dot segments and double slashes kept (the URL parser would resolve them before sending).
 */
type RawRequest = { method: string; headers: Record<string, string | string[]>; body?: Buffer; timeoutMs: number; asWritten?: boolean };

/**
 * A request on a kept-alive connection the server had already closed (idle, while a test waited for the rate limit) fails before any
 * answer: it never reached the server, so it is sent once more on a new connection, as HTTP clients do.
 */
export const sendRaw = (url: string, r: RawRequest): Promise<RawResponse> =>
  sendOnce(url, r).catch((e: NodeJS.ErrnoException & { staleConnection?: boolean }) => (e.staleConnection ? sendOnce(url, r) : Promise.reject(e)));

const sendOnce = (url: string, r: RawRequest): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const path = r.asWritten ? { path: url.slice(target.origin.length) } : {};
    const options = {
      method: r.method,
      headers: withAcceptEncoding(withUserAgent(r.headers)),
      agent: secure ? connections.https : connections.http,
      timeout: r.timeoutMs,
      ...path,
    };
    let answered = false;
    const req = (secure ? httpsRequest : httpRequest)(target, options, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      // UTF-8, a byte order mark dropped, as a text() of fetch or undici reads it.
      res.on('end', () => {
        const body = decoded(Buffer.concat(chunks), res.headers['content-encoding']);
        const bom = body.subarray(0, 3).equals(UTF8_BOM) ? { bom: true as const } : {};
        resolve({ status: res.statusCode ?? 0, headers: headersOf(res), text: new TextDecoder().decode(body), ...bom });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${r.timeoutMs / 1000} s`)));
    // A server may answer before it has read the whole request (a 413 to a large body, a 431 to large headers) and close the connection: the write then fails
    // (EPIPE, ECONNRESET) while the answer is on its way, so the error waits a moment for the answer, which wins if it comes.
    req.on('error', (e: NodeJS.ErrnoException) => {
      const cut = e.code === 'EPIPE' || e.code === 'ECONNRESET';
      if (cut && req.reusedSocket && !answered) reject(Object.assign(e, { staleConnection: true }));
      else if (cut) setTimeout(() => reject(e), ANSWER_AFTER_WRITE_ERROR_MS);
      else reject(e);
    });
    req.end(r.body);
  });
