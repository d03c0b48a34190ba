// The service entry point: bad environment is one line and exit 2; it listens and prints its one line;
// REFERENCE_PLUGINS bends it from outside (the self-test's faults among them, MOCK_FAULT checked there).
import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { KINDS } from '../../reference/fault-kinds';
import { FAULTS, listFaults } from '../../reference/faults';
import { OUTSIDE_FAULTS_PLUGIN } from '../faults/outside/plugin';

const ROOT = resolve(__dirname, '../..');

function run(env: Record<string, string>, args: string[] = [], untilLine = false) {
  const proc = spawn(process.execPath, ['support/run/embedded.mjs', 'reference/service/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, MOCK_FAULT: '', ...env },
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d) => {
    out += d;
    if (untilLine && out.includes('\n')) proc.kill('SIGTERM');
  });
  proc.stderr.on('data', (d) => {
    err += d;
  });
  return new Promise<{ code: number | null; out: string; err: string }>((ok) => proc.once('exit', (code) => ok({ code, out, err })));
}

const FAULTS_PLUGIN = { REFERENCE_PLUGINS: OUTSIDE_FAULTS_PLUGIN };

for (const value of ['bogus', 'accept:API:%7Bnot-json', 'errbody:runtime:404']) {
  test(`main: a bad MOCK_FAULT (${value}) refused by the faults' plugin exits 2 with one line naming it`, async () => {
    const r = await run({ ...FAULTS_PLUGIN, MOCK_FAULT: value });
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain('MOCK_FAULT');
  });
}

for (const [name, value] of [
  ['RATE_LIMIT_MAX', 'many'],
  ['RATE_LIMIT_WINDOW_S', '0'],
  ['RATE_LIMIT_ALGORITHM', 'leaky'],
  ['RATE_LIMIT_COUNT_REFUSED', 'maybe'],
  ['PORT', '70000'],
  ['REF_ACCOUNT_HEADER', 'bad header'],
  ['REF_API_KEY', 'two words'],
  ['REF_ACCOUNT_ID', 'not-a-guid'],
  ['REF_SECOND_ACCOUNT_ID', '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c'],
  ['REFERENCE_PLUGINS', 'no/such/plugin.ts'],
] as const) {
  test(`main: bad ${name} (${value}) exits 2 with one line naming it`, async () => {
    const r = await run({ [name]: value });
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(name);
  });
}

test('faults: the list names every named fault and the grammar of every kind', () => {
  const text = listFaults();
  for (const name of Object.keys(FAULTS)) expect(text).toContain(name);
  for (const kind of Object.values(KINDS)) expect(text).toContain(kind.grammar);
});

test('main: MOCK_FAULT alone changes nothing: the service reads no fault list of its own', async () => {
  const r = await run({ PORT: '0', MOCK_FAULT: 'bogus' }, [], true);
  expect(r.out).toMatch(/^reference service listening on/);
});

test('main: a row of an agent kind is accepted (and ignored) by the service', async () => {
  const r = await run({ ...FAULTS_PLUGIN, PORT: '0', MOCK_FAULT: 'agent-dies-late:health:200,agent-exit-at-once' }, [], true);
  expect(r.out).toMatch(/^reference service listening on/);
});

test('main: listens and prints one line', async () => {
  const r = await run({ PORT: '0' }, [], true);
  expect(r.out).toMatch(/^reference service listening on http:\/\/127\.0\.0\.1:\d+\n$/);
  expect(r.code).toBe(0);
});

// A plugin of a user's own, outside the project: TypeScript, bundled by embedded.mjs or loaded by tsx.
const BENDING_PLUGIN = `import type { FastifyInstance } from 'fastify';
export default async function bend(app: FastifyInstance) {
  app.addHook('onSend', async (req, reply, payload) => (req.url === '/openapi.json' ? '{"bent":true}' : payload));
}
`;

for (const launcher of [['support/run/embedded.mjs'], ['--import', 'tsx']]) {
  test(`main: REFERENCE_PLUGINS registers each module's default export as a plugin of the service (${launcher.join(' ')})`, async ({}, testInfo) => {
    const file = testInfo.outputPath('bend.ts');
    writeFileSync(file, BENDING_PLUGIN);
    const proc = spawn(process.execPath, [...launcher, 'reference/service/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, MOCK_FAULT: '', PORT: '0', REFERENCE_PLUGINS: file },
    });
    try {
      const port = await new Promise<string>((ok, ko) => {
        let out = '';
        proc.stdout.on('data', (d) => {
          out += d;
          const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
          if (m) ok(m[1]);
        });
        proc.once('exit', (code) => ko(new Error(`exited with ${code}`)));
      });
      expect(await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).json()).toEqual({ bent: true });
      expect((await fetch(`http://127.0.0.1:${port}/swagger.json`)).status).toBe(200);
    } finally {
      proc.kill('SIGTERM');
    }
  });
}
