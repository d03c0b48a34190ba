/**
 * One GET to a health endpoint on a new connection (a draining agent may serve the ones it has), a refused connection being an answer too.
 * Over http a bare socket, not node:http: the shutdown watch sends about a hundred a second, and node:http costs four times the CPU.
 */
import { get as httpsGet } from 'node:https';
import { connect } from 'node:net';

export type Probe = { status: number } | { error: string };

const STATUS_LINE = /^HTTP\/\d(?:\.\d)? (\d{3})[ \r]/;

/** `onSent`: when the request was handed to the connection, which a loaded prober may reach well after it began. */
export function probe(url: string, timeoutMs = 2000, onSent?: () => void): Promise<Probe> {
  return url.startsWith('https:') ? probeHttps(url, timeoutMs, onSent) : probeHttp(new URL(url), timeoutMs, onSent);
}

function probeHttp(url: URL, timeoutMs: number, onSent?: () => void): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) });
    let head = '';
    const done = (p: Probe) => {
      socket.destroy();
      resolve(p);
    };
    socket.setNoDelay(true);
    socket.setTimeout(timeoutMs, () => done({ error: 'TimeoutError' }));
    socket.on('connect', () => {
      socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
      onSent?.();
    });
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const status = STATUS_LINE.exec(head);
      if (status) done({ status: Number(status[1]) });
      else if (head.includes('\n') || head.length > 64) done({ error: 'not an HTTP answer' });
    });
    socket.on('end', () => done({ error: head ? 'not an HTTP answer' : 'closed without an answer' }));
    socket.on('error', (e: NodeJS.ErrnoException) => done({ error: e.code ?? e.name }));
  });
}

function probeHttps(url: string, timeoutMs: number, onSent?: () => void): Promise<Probe> {
  return new Promise((resolve) => {
    const req = httpsGet(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.name }));
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.resume();
    });
    if (onSent) req.on('finish', onSent);
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'TimeoutError' })));
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.name }));
  });
}
