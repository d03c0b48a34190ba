// Runtimes: the seven ids answer realistic data; anything else is a JSON 404, never a 5xx.
import { expect, test } from '@playwright/test';
import { call, service } from './reference-testing';

const IDS = ['2026.04', '2025.04', '2024.09', '2024.02', '2023.09', '2023.02', '2022.10'];
const STAGES = ['ALPHA', 'BETA', 'CURRENT', 'DEPRECATED', 'REMOVED', 'STABLE'];

function realDate(s: string): boolean {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[3], +m[1] - 1, +m[2]));
  return d.getUTCMonth() === +m[1] - 1 && d.getUTCDate() === +m[2];
}

test('runtimes: each of the seven ids answers a well-formed runtime', async () => {
  const app = await service();
  for (const id of IDS) {
    const r = await call(app, { url: `/v1/runtimes/${id}` });
    expect(r.status, id).toBe(200);
    expect(r.type).toMatch(/^application\/json/);
    const rt = r.body;
    expect(rt.name).toBe(id);
    expect(rt.nodeJsVersion).toMatch(/^v\d+\.\d+\.\d+$/);
    expect(typeof rt.multiStepSupport).toBe('boolean');
    expect(STAGES).toContain(rt.stage);
    if (rt.runtimeEndOfLife !== undefined) expect(realDate(rt.runtimeEndOfLife), rt.runtimeEndOfLife).toBe(true);
    expect(typeof rt.description).toBe('string');
    const deps = Object.entries(rt.dependencies);
    expect(deps.length).toBeGreaterThanOrEqual(10);
    expect(deps.length).toBeLessThanOrEqual(20);
    for (const [, v] of deps) expect(typeof v).toBe('string');
  }
  await app.close();
});

test('runtimes: the list has all seven', async () => {
  const app = await service();
  const r = await call(app, { url: '/v1/runtimes' });
  expect(r.status).toBe(200);
  expect(r.body.map((x: { name: string }) => x.name)).toEqual(IDS);
  await app.close();
});

const ODD = [
  '2021.01',
  '2024.9',
  '2024.0',
  '2024',
  '2024.09 ',
  ' 2024.09',
  '2024.09x',
  '2024-09',
  'latest',
  'null',
  '0',
  '-1',
  '%2F',
  '..%2F',
  '%2E%2E',
  '..%2F..%2Fetc%2Fpasswd',
  '2024.09%2F',
  '%00',
  '%25',
  '%E0%A4%A',
  '%C3%A9',
  '日本',
  '%20',
  'x'.repeat(2000),
  '2024.09'.repeat(300),
  '%2e%2e%2f2024.09',
  '{id}',
  '*',
  '?',
  '%3F',
  '2024.09;x=1',
];

test('runtimes: odd ids are a JSON 404, never 5xx', async () => {
  const app = await service();
  for (const id of ODD) {
    const r = await call(app, { url: `/v1/runtimes/${encodeURI(id).replace(/%25/g, '%')}` });
    expect(r.status, id.slice(0, 40)).toBeLessThan(500);
    expect([400, 404], id.slice(0, 40)).toContain(r.status);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.body.statusCode).toBe(r.status);
  }
  for (const id of ['2024.9', '2021.01', '%2F', 'x'.repeat(2000), '%E0%A4%A']) {
    const r = await call(app, { url: `/v1/runtimes/${id}` });
    expect(r.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  }
  await app.close();
});
