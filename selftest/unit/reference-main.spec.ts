// The service entry point: bad environment is one line and exit 2; it listens and prints its one line;
// REFERENCE_PLUGINS bends it from outside (the self-test's faults among them, MOCK_FAULT checked there).
import { expect, test } from '@playwright/test';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { KINDS } from '../faults/catalogue/fault-kinds';
import { FAULTS, listFaults } from '../faults/catalogue/faults';
import { OUTSIDE_FAULTS_PLUGIN } from '../faults/outside/plugin';
import { DEMO_ACCOUNT_ID, DEMO_KEY } from './reference-testing';

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

/** The port a started service prints it listens on; the exit if it stops first. */
const portOf = (proc: ChildProcessWithoutNullStreams) =>
  new Promise<string>((ok, ko) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) ok(m[1]);
    });
    proc.once('exit', (code) => ko(new Error(`exited with ${code}`)));
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
      const port = await portOf(proc);
      expect(await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).json()).toEqual({ bent: true });
      expect((await fetch(`http://127.0.0.1:${port}/swagger.json`)).status).toBe(200);
    } finally {
      proc.kill('SIGTERM');
    }
  });
}

/**
 * The faults' plugin bundled on its own (embedded.mjs bundles each plugin apart from the service): it has
 * its own copies of the service's modules, so whatever it throws or reads of the service's must be known
 * by its shape, not its class. One fault of each record file, all at once, each seen by its symptom.
 */
test('main: the faults reach the embedded service through REFERENCE_PLUGINS as they do in-process, one of each part', async () => {
  const faults = ['auth-skip:runtime:key', 'rl-limit:-597', 'rl-429-body', 'rt-node-no-v', 'errbody:check-read:404:wording', 'req-delete-runtime-200'];
  const proc = spawn(process.execPath, ['support/run/embedded.mjs', 'reference/service/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...FAULTS_PLUGIN, MOCK_FAULT: faults.join(','), PORT: '0' },
  });
  try {
    const port = await portOf(proc);
    const base = `http://127.0.0.1:${port}`;
    const auth = { authorization: `Bearer ${DEMO_KEY}`, 'x-service-account': DEMO_ACCOUNT_ID };
    // auth-skip:runtime:key: the runtime served without a key; rt-node-no-v: its Node.js version without its v.
    const rt = await fetch(`${base}/v1/runtimes/2025.04`, { headers: { 'x-service-account': DEMO_ACCOUNT_ID } });
    expect(rt.status).toBe(200);
    expect((await rt.json()).nodeJsVersion).toMatch(/^\d/);
    // errbody:check-read:404:wording: the check read's 404 in other words.
    const missing = await fetch(`${base}/v1/checks/3d2c1b0a-9f8e-4d7c-a6b5-c4d3e2f1a0b9`, { headers: auth });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).not.toBe('Not Found');
    // req-delete-runtime-200: a route the plugin added.
    expect((await fetch(`${base}/v1/runtimes/2025.04`, { method: 'DELETE', headers: auth })).status).toBe(200);
    // rl-limit:-597 and rl-429-body: the limit is 3, and its 429 carries the body the fault gives it.
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await fetch(`${base}/v1/runtimes/2024.09`, { headers: auth }));
    const refused = answers.find((a) => a.status === 429);
    expect(refused, answers.map((a) => a.status).join(',')).toBeDefined();
    expect(await refused!.json()).toEqual({ code: 429, message: 'Rate limit exceeded' });
  } finally {
    proc.kill('SIGTERM');
  }
});
