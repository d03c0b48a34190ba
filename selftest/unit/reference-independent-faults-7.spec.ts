// The seventh batch of independent faults (ind7-*, selftest/faults/catalogue/independent-faults.ts INDEPENDENT_FAULTS_7):
// the catalogue and the service still usable with each (testGeneration), and the agent faults, the agent
// run as a child process. That each service fault breaks the reference: fault-probes.spec.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { testGeneration } from './reference-fault-harness';
import { INDEPENDENT_FAULTS_7 } from '../faults/catalogue/independent-faults';
import { INDEPENDENT_FAULTS_7 as MEASURED } from '../faults/independent';
import { AGENT_FAULTS_PLUGIN } from '../faults/outside/agent-plugin';

testGeneration(7, INDEPENDENT_FAULTS_7, MEASURED, [
  // The invalid document is the fault itself, and the cache miss answers an ordinary first read 404.
  'ind7-spec-nullable-type-array',
  'ind7-rt-cache-miss-404',
]);

// ---- agent faults: the agent as a child process on a port of the system's choice ------------------

test.describe.configure({ mode: 'parallel' });

const ROOT = join(__dirname, '..', '..');

/** Starts the agent (AGENT_HEALTH_PORT=0 unless `env` says otherwise); resolves once it prints its port. */
function startAgent(faults: string[], env: Record<string, string> = {}): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'reference/agent/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, AGENT_HEALTH_PORT: '0', AGENT_PLUGINS: AGENT_FAULTS_PLUGIN, MOCK_FAULT: faults.join(','), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`agent did not start: ${out}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ port: Number(m[1]), child });
      }
    });
    child.on('exit', (code) => reject(new Error(`agent exited (${code}): ${out}`)));
  });
}

async function withAgent<T>(faults: string[], use: (get: (path: string) => Promise<number>) => Promise<T>): Promise<T> {
  const { port, child } = await startAgent(faults);
  try {
    return await use(async (path) => (await fetch(`http://127.0.0.1:${port}${path}`)).status);
  } finally {
    child.kill('SIGINT');
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('independent agent fault ind7-agent-liveness-before-first-heartbeat: liveness 503 for the first 2 s after start', async () => {
  const probe = (get: (path: string) => Promise<number>) => async () => {
    const early = [await get('/-/liveness'), await get('/-/readiness'), await get('/health')];
    await sleep(2300);
    return [early, await get('/-/liveness')];
  };
  expect(await withAgent([], (get) => probe(get)())).toEqual([[200, 200, 200], 200]);
  expect(await withAgent(['ind7-agent-liveness-before-first-heartbeat'], (get) => probe(get)())).toEqual([[503, 200, 200], 200]);
});

test('independent agent fault ind7-agent-health-legacy-port: /health 404 on the port AGENT_HEALTH_PORT sets', async () => {
  const probe = async (get: (path: string) => Promise<number>) => [await get('/health'), await get('/-/readiness'), await get('/-/liveness')];
  expect(await withAgent([], probe)).toEqual([200, 200, 200]);
  expect(await withAgent(['ind7-agent-health-legacy-port'], probe)).toEqual([404, 200, 200]);
});
