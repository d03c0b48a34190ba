// The client asks as real clients do (Accept-Encoding: gzip, deflate, br) and reads a body by what
// Content-Encoding says: a compressed body it names is decoded, one it does not name stays bytes.
import { expect, test } from '@playwright/test';
import { createServer } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { ACCEPT_ENCODING, sendRaw } from '../../support/http/transport';

test('a body is decoded by its Content-Encoding, and a compressed one without it is not JSON', async () => {
  const json = JSON.stringify({ openapi: '3.0.3' });
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(String(req.headers['accept-encoding']));
    if (req.url === '/gzip') res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(json));
    else if (req.url === '/br') res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' }).end(brotliCompressSync(json));
    else res.writeHead(200, { 'content-type': 'application/json' }).end(gzipSync(json));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const get = (path: string) => sendRaw(`${base}${path}`, { method: 'GET', headers: {}, timeoutMs: 5000 });
    expect((await get('/gzip')).text).toBe(json);
    expect((await get('/br')).text).toBe(json);
    expect((await get('/unlabelled')).text).not.toBe(json);
    expect(seen).toEqual([ACCEPT_ENCODING, ACCEPT_ENCODING, ACCEPT_ENCODING]);
    expect(ACCEPT_ENCODING).toBe('gzip, deflate, br');
  } finally {
    server.close();
  }
});
