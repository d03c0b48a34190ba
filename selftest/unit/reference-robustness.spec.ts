// Odd requests get a 4xx JSON error whose statusCode equals the status; nothing answers 5xx.
import { expect, test } from '@playwright/test';
import { AUTH, call, SEEDED_API_CHECK_ID, service } from './reference-testing';

const CHECK = `/v1/checks/${SEEDED_API_CHECK_ID}`;
const json = { ...AUTH, 'content-type': 'application/json' };

const CASES: Array<[string, Parameters<typeof call>[1], number]> = [
  ['malformed JSON', { method: 'PUT', url: CHECK, headers: json, payload: '{"name": ' }, 400],
  ['JSON null', { method: 'PUT', url: CHECK, headers: json, payload: 'null' }, 400],
  ['JSON string', { method: 'PUT', url: CHECK, headers: json, payload: '"x"' }, 400],
  ['empty JSON body', { method: 'PUT', url: CHECK, headers: json, payload: '' }, 400],
  ['text/plain', { method: 'PUT', url: CHECK, headers: { ...AUTH, 'content-type': 'text/plain' }, payload: '{}' }, 415],
  ['form body', { method: 'PUT', url: CHECK, headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' }, 415],
  ['2 MB JSON', { method: 'PUT', url: CHECK, headers: json, payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) }, 413],
  ['10 MB body', { method: 'PUT', url: CHECK, headers: json, payload: 'x'.repeat(10 * 1024 * 1024) }, 413],
  ['unknown path', { url: '/v2/runtimes/2025.04' }, 404],
  ['unknown path under v1', { url: '/v1/nothing' }, 404],
  ['DELETE a runtime', { method: 'DELETE', url: '/v1/runtimes/2025.04' }, 404],
  ['POST a check', { method: 'POST', url: CHECK, headers: json, payload: '{}' }, 404],
  ['PATCH a check', { method: 'PATCH', url: CHECK, headers: json, payload: '{}' }, 404],
  ['bad percent encoding', { url: '/v1/runtimes/%E0%A4%A' }, 404],
  ['encoded dot segments', { url: '/v1/runtimes/%2E%2E%2F%2E%2E%2Fopenapi.json' }, 404],
  ['double slash', { url: '//v1//runtimes//2025.04' }, 404],
  ['deep prototype key', { method: 'PUT', url: CHECK, headers: json, payload: '{"__proto__": {"x": 1}}' }, 400],
];

for (const [name, opts, status] of CASES) {
  test(`robustness: ${name} -> ${status}`, async () => {
    const app = await service();
    const r = await call(app, opts);
    expect(r.status).toBe(status);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.body).toEqual({ statusCode: status, error: expect.any(String), message: expect.any(String) });
    await app.close();
  });
}

test('robustness: wrong types in every property never 5xx', async () => {
  const app = await service();
  const values = [null, true, 0, -1, 1.5, '', 'x', [], [null], {}, { a: 1 }, 'x'.repeat(5000)];
  for (const key of [
    'name',
    'locations',
    'frequency',
    'frequencyOffset',
    'groupOrder',
    'runtimeId',
    'checkType',
    'retryStrategy',
    'alertChannelSubscriptions',
    'environmentVariables',
    'privateLocations',
    'tags',
    'description',
    'triggerIncident',
  ]) {
    for (const v of values) {
      const r = await call(app, { method: 'PUT', url: CHECK, payload: { [key]: v } });
      expect(r.status, `${key}=${JSON.stringify(v).slice(0, 20)}`).toBeLessThan(500);
      expect(r.body.statusCode ?? 200).toBe(r.status);
    }
  }
  await app.close();
});

/** The raw answer to raw bytes, read until the service closes the connection. */
async function rawAnswer(port: number, request: string): Promise<string> {
  const { createConnection } = await import('node:net');
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let data = '';
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    socket.setTimeout(5000, () => reject(new Error(`no end of the answer within 5 s: ${data.slice(0, 200)}`)));
    socket.write(request);
  });
}

for (const [name, request, status, hasBody] of [
  ['a GET with a 100 kB URL', `GET /v1/runtimes/${'x'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414, true],
  ['a HEAD with a 100 kB URL', `HEAD /v1/runtimes/${'x'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414, false],
  ['a 40 kB header', `GET /v1/runtimes/2025.04 HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(40_000)}\r\n\r\n`, 431, true],
  ['a header line that does not parse', 'GET /v1/runtimes/2025.04 HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400, true],
] as const) {
  test(`transport: ${name} -> a whole ${status} answer, the error body unless HEAD, and the connection closed`, async () => {
    const app = await service();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const answer = await rawAnswer(port, request);
    await app.close();
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(head).toMatch(/\r\nconnection: close/i);
    expect(head).toMatch(/\r\ncontent-type: application\/json/i);
    // Exactly one answer: nothing after the body its Content-Length announces (no body at all for a HEAD).
    if (hasBody) {
      expect(JSON.parse(body)).toEqual({ statusCode: status, error: expect.any(String), message: expect.any(String) });
      expect(Buffer.byteLength(body)).toBe(Number(/content-length: (\d+)/i.exec(head)![1]));
    } else expect(body).toBe('');
  });
}
