// The eighth batch of independent faults (ind8-*, selftest/faults/catalogue/independent-faults.ts INDEPENDENT_FAULTS_8):
// the catalogue and the service still usable with each (testGeneration), and the agent faults, which
// drive the agent's health handler on a port of the system's choice. That each service fault breaks the
// reference: fault-probes.spec.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { healthHandler } from '../../reference/agent/health';
import { agentSeams } from './reference-testing';
import { testGeneration } from './reference-fault-harness';
import { ERROR_WINDOW_MS, INDEPENDENT_FAULTS_8 } from '../faults/catalogue/independent-faults';
import { INDEPENDENT_FAULTS_8 as MEASURED } from '../faults/independent';

testGeneration(8, INDEPENDENT_FAULTS_8, MEASURED);

// ---- agent faults: the health handler on a port of the system's choice ------------------------------

async function withAgent<T>(faults: string[], use: (get: (path: string, headers?: Record<string, string>) => Promise<number>) => Promise<T>): Promise<T> {
  const server: Server = createServer(healthHandler({ drainingSince: null, drainMs: 300 }, agentSeams(faults)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await use(async (path, headers) => (await fetch(`http://127.0.0.1:${port}${path}`, { headers })).status);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('independent agent fault ind8-agent-liveness-after-error: liveness 503 for a second after a 404', async () => {
  const probe = async (get: (path: string) => Promise<number>) => {
    const before = await get('/-/liveness');
    const missing = await get('/-/nothing-here');
    const after = [await get('/-/liveness'), await get('/-/readiness'), await get('/health')];
    await sleep(ERROR_WINDOW_MS + 200);
    return [before, missing, after, await get('/-/liveness')];
  };
  expect(await withAgent([], probe)).toEqual([200, 404, [200, 200, 200], 200]);
  expect(await withAgent(['ind8-agent-liveness-after-error'], probe)).toEqual([200, 404, [503, 200, 200], 200]);
});

test('independent agent fault ind8-agent-health-accept-json: /health 406 unless Accept names application/json', async () => {
  const probe = async (get: (path: string, headers?: Record<string, string>) => Promise<number>) => [
    await get('/health', { accept: '*/*' }),
    await get('/health', { accept: 'text/plain' }),
    await get('/health', { accept: 'application/json' }),
    await get('/-/liveness', { accept: '*/*' }),
    await get('/-/readiness', { accept: '*/*' }),
  ];
  expect(await withAgent([], probe)).toEqual([200, 200, 200, 200, 200]);
  expect(await withAgent(['ind8-agent-health-accept-json'], probe)).toEqual([406, 406, 200, 200, 200]);
});
