// The agent as a child process on a free port: probes, SIGTERM, 503 while draining, exit 0; and its faults.
import { expect, test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { AGENT_DEFAULT_PORT } from '../../support/document/facts';
import { AGENT_FAULTS_PLUGIN } from '../faults/outside/agent-plugin';

const ROOT = resolve(__dirname, '../..');
const AGENT = 'reference/agent/main.ts';
/** The agent's faults come in through its plugin, which reads MOCK_FAULT. */
const FAULTS_PLUGIN = { AGENT_PLUGINS: AGENT_FAULTS_PLUGIN };

/** A free port whose successor is free too (agent-ignore-port listens on port + 1). */
async function freePort(): Promise<number> {
  const grab = (port: number) =>
    new Promise<number>((ok, ko) => {
      const s = createServer()
        .once('error', ko)
        .listen(port, '127.0.0.1', () => {
          const p = (s.address() as { port: number }).port;
          s.close(() => ok(p));
        });
    });
  for (;;) {
    const p = await grab(0);
    if (
      p < 65535 &&
      (await grab(p + 1).then(
        () => true,
        () => false,
      ))
    )
      return p;
  }
}

interface Agent {
  proc: ChildProcess;
  port: number;
  exited: Promise<number | null>;
}

/**
 * The agent on a free port (its port: the one it was given, wherever a fault makes it listen), or with
 * AGENT_HEALTH_PORT unset (`port: 'unset'`; its port: the one its line says it listens on).
 */
async function startAgent(faults: string[] = [], drainMs = 1500, { port: given }: { port?: 'unset' } = {}): Promise<Agent> {
  const port = given === 'unset' ? undefined : await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...FAULTS_PLUGIN,
    AGENT_HEALTH_PORT: String(port),
    AGENT_DRAIN_MS: String(drainMs),
    MOCK_FAULT: faults.join(','),
  };
  if (port === undefined) delete env.AGENT_HEALTH_PORT;
  const proc = spawn(process.execPath, ['support/run/embedded.mjs', AGENT], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
  const exited = new Promise<number | null>((ok) => proc.once('exit', (code) => ok(code)));
  // Ready when it prints its one line.
  const line = await new Promise<string>((ok, ko) => {
    proc.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('listening')) ok(d.toString());
    });
    proc.once('exit', (code) => ko(new Error(`agent exited with ${code}`)));
  });
  return { proc, port: port ?? Number(/:(\d+)/.exec(line)![1]), exited };
}

const probe = async (port: number, path: string) => {
  try {
    return (await fetch(`http://127.0.0.1:${port}${path}`)).status;
  } catch {
    return 'refused';
  }
};

test('agent: three endpoints, then SIGTERM: readiness 503 and liveness 200 while draining, exit 0', async () => {
  const a = await startAgent([], 1500);
  expect(await probe(a.port, '/-/readiness')).toBe(200);
  expect(await (await fetch(`http://127.0.0.1:${a.port}/-/readiness`)).json()).toEqual({ status: 'ok' });
  expect(await probe(a.port, '/-/liveness')).toBe(200);
  expect(await probe(a.port, '/health')).toBe(200);
  expect(await probe(a.port, '/nothing')).toBe(404);
  const t0 = Date.now();
  a.proc.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 200));
  expect(await probe(a.port, '/-/readiness')).toBe(503);
  expect(await probe(a.port, '/-/liveness')).toBe(200);
  expect(await probe(a.port, '/health')).toBe(200);
  expect(await a.exited).toBe(0);
  expect(Date.now() - t0).toBeGreaterThanOrEqual(1400);
});

test('agent: an unknown fault name exits 2', async () => {
  const proc = spawn(process.execPath, ['support/run/embedded.mjs', AGENT], {
    cwd: ROOT,
    env: { ...process.env, ...FAULTS_PLUGIN, MOCK_FAULT: 'no-such-fault' },
  });
  expect(await new Promise((ok) => proc.once('exit', ok))).toBe(2);
});

const FAULT_PROBES: Array<[string, (a: Agent) => Promise<unknown>]> = [
  ['agent-ready-503', (a) => probe(a.port, '/-/readiness')],
  ['agent-liveness-500', (a) => probe(a.port, '/-/liveness')],
  ['agent-liveness-after-error', async (a) => [await probe(a.port, '/-/nothing'), await probe(a.port, '/-/liveness')]],
  ['agent-no-health', (a) => probe(a.port, '/health')],
  ['agent-ignore-port', async (a) => [await probe(a.port, '/health'), await probe(a.port + 1, '/health')]],
  [
    'agent-ready-during-shutdown',
    async (a) => {
      a.proc.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      return probe(a.port, '/-/readiness');
    },
  ],
  [
    'agent-liveness-dies-on-shutdown',
    async (a) => {
      a.proc.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      return probe(a.port, '/-/liveness');
    },
  ],
  // Read from MOCK_FAULT like the others: 600 ms of 200 from readiness into an 800 ms drain.
  [
    'agent-ready-late:600',
    async (a) => {
      a.proc.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      return probe(a.port, '/-/readiness');
    },
  ],
];

/**
 * Liveness asked back to back from the agent's start for `forMs` (SIGTERM at `signalAtMs`): what it answered, by phase; a refusal
 * only when the process lived on 400 ms more (a correct agent closes its port just before it exits).
 */
async function livenessOf(faults: string[], forMs: number, signalAtMs = Infinity) {
  const a = await startAgent(faults, 200);
  const seen: Array<[string, number]> = [];
  let exited = false;
  void a.exited.then(() => (exited = true));
  const t0 = Date.now();
  for (let t = 0; t < forMs && !exited; t = Date.now() - t0) {
    if (t >= signalAtMs && !a.proc.killed) a.proc.kill('SIGTERM');
    seen.push([`${a.proc.killed ? 'draining' : 'running'} ${await probe(a.port, '/-/liveness')}`, Date.now()]);
  }
  a.proc.kill('SIGKILL');
  await a.exited;
  const exitAt = Date.now();
  return [...new Set(seen.filter(([what, at]) => !what.endsWith('refused') || exitAt - at > 400).map(([what]) => what))].sort();
}

test('agent faults of its listener: closed for a moment while it runs, closed long before the exit', async () => {
  expect(await livenessOf([], 600, 300)).toEqual(['draining 200', 'running 200']);
  expect(await livenessOf(['agent-listener-gap'], 1000)).toEqual(['running 200', 'running refused']);
  // Drained for 200 ms, then the port closed and the process still there for 2 s.
  expect(await livenessOf(['agent-close-before-exit'], 1200, 300)).toEqual(['draining 200', 'draining refused', 'running 200']);
});

test('agent fault agent-default-port: without AGENT_HEALTH_PORT it listens elsewhere than 8081; with it, where it is told', async () => {
  const unset = await startAgent(['agent-default-port'], 1500, { port: 'unset' });
  try {
    expect(unset.port).not.toBe(AGENT_DEFAULT_PORT);
    expect(await probe(unset.port, '/health')).toBe(200);
  } finally {
    unset.proc.kill('SIGKILL');
  }
  const told = await startAgent(['agent-default-port']);
  try {
    expect(await probe(told.port, '/health')).toBe(200);
  } finally {
    told.proc.kill('SIGKILL');
  }
});

test('agent fault agent-exit-at-once: SIGTERM ends it at once, exit 0, readiness never 503', async () => {
  const a = await startAgent(['agent-exit-at-once'], 1500);
  const t0 = Date.now();
  a.proc.kill('SIGTERM');
  expect(await probe(a.port, '/-/readiness')).not.toBe(503);
  expect(await a.exited).toBe(0);
  expect(Date.now() - t0).toBeLessThan(1000);
});

for (const [fault, run] of FAULT_PROBES) {
  test(`agent fault ${fault} changes behaviour`, async () => {
    const observe = async (faults: string[]) => {
      const a = await startAgent(faults, 800);
      try {
        return JSON.stringify(await run(a));
      } finally {
        a.proc.kill('SIGTERM');
        await a.exited;
      }
    };
    const clean = await observe([]);
    expect(await observe([fault]), `clean: ${clean}`).not.toBe(clean);
  });
}
