// The agent probe: a status from any well-formed answer, a reason for everything else, never a throw.
import { expect, test } from '@playwright/test';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { probe } from '../../support/agent/probe';

/** A loopback server that answers each connection with `answer`; returns its base URL. */
async function rawServer(answer: (socket: Socket) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(answer);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test('the status of an HTTP answer, whatever its reason phrase or headers', async () => {
  const seen: string[] = [];
  const server = createHttpServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.host}`);
    res.writeHead(req.url === '/-/readiness' ? 503 : 200, { 'content-type': 'text/plain' }).end('x'.repeat(10_000));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  try {
    expect(await probe(`http://127.0.0.1:${port}/-/readiness`)).toEqual({ status: 503 });
    expect(await probe(`http://127.0.0.1:${port}/health?x=1`)).toEqual({ status: 200 });
    expect(seen).toEqual([`GET /-/readiness 127.0.0.1:${port}`, `GET /health?x=1 127.0.0.1:${port}`]);
  } finally {
    server.close();
  }
});

test('a status line that comes in pieces, or without a reason phrase', async () => {
  const { url, server } = await rawServer((s) => {
    s.write('HTTP/1.1 2');
    setTimeout(() => s.end('04\r\n\r\n'), 20);
  });
  try {
    expect(await probe(`${url}/health`)).toEqual({ status: 204 });
  } finally {
    server.close();
  }
});

test('refused, silent, closed and non-HTTP answers are errors, not statuses', async () => {
  const closed = await rawServer((s) => s.end());
  const silent = await rawServer(() => {});
  const garbage = await rawServer((s) => s.end('SSH-2.0-OpenSSH\r\n'));
  const gone = await rawServer(() => {});
  const goneUrl = gone.url;
  await new Promise((r) => gone.server.close(r));
  try {
    expect(await probe(`${goneUrl}/health`)).toEqual({ error: 'ECONNREFUSED' });
    expect(await probe(`${closed.url}/health`)).toEqual({ error: 'closed without an answer' });
    expect(await probe(`${silent.url}/health`, 100)).toEqual({ error: 'TimeoutError' });
    expect(await probe(`${garbage.url}/health`)).toEqual({ error: 'not an HTTP answer' });
  } finally {
    for (const s of [closed, silent, garbage]) s.server.close();
  }
});
