// One trivial API test: a loopback server of its own and one request through Playwright's request fixture.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';

test('one GET answers 200', async ({ request }) => {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const res = await request.get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    expect(res.status()).toBe(200);
  } finally {
    server.close();
  }
});
