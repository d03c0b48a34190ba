// The ninth batch of independent faults (ind9-*, selftest/faults/catalogue/independent-faults.ts INDEPENDENT_FAULTS_9):
// the catalogue and the service still usable with each (testGeneration), and the agent faults, which
// drive the agent's health handler on a port of the system's choice, and its port reading directly.
// That each service fault breaks the reference: fault-probes.spec.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { healthHandler, healthPortOf } from '../../reference/agent/health';
import { agentSeams } from './reference-testing';
import { testGeneration } from './reference-fault-harness';
import { INDEPENDENT_FAULTS_9, PROBES_PER_SECOND } from '../faults/catalogue/independent-faults';
import { INDEPENDENT_FAULTS_9 as MEASURED } from '../faults/independent';

testGeneration(9, INDEPENDENT_FAULTS_9, MEASURED, [
  // Its document is no JSON text at all (its own case above shows it).
  'ind9-spec-utf8-bom',
]);

// ---- agent faults: the health handler on a port of the system's choice, and the port reading -----------

async function withAgent<T>(faults: string[], use: (get: (path: string) => Promise<number>) => Promise<T>): Promise<T> {
  const server: Server = createServer(healthHandler({ drainingSince: null, drainMs: 300 }, agentSeams(faults)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await use(async (path) => (await fetch(`http://127.0.0.1:${port}${path}`)).status);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('independent agent fault ind9-agent-probe-throttle: more than 5 probes a second to one endpoint answer 429', async () => {
  const probe = async (get: (path: string) => Promise<number>) => {
    const quick: number[] = [];
    for (let i = 0; i < PROBES_PER_SECOND + 2; i++) quick.push(await get('/-/liveness'));
    const others = [await get('/health'), await get('/-/readiness')];
    await sleep(1100);
    return [quick, others, await get('/-/liveness')];
  };
  expect(await withAgent([], probe)).toEqual([[200, 200, 200, 200, 200, 200, 200], [200, 200], 200]);
  expect(await withAgent(['ind9-agent-probe-throttle'], probe)).toEqual([[200, 200, 200, 200, 200, 429, 429], [200, 200], 200]);
});

test('independent agent fault ind9-agent-port-four-digits: a five-digit AGENT_HEALTH_PORT falls back to 8081', () => {
  const read = (faults: string[]) => {
    const s = agentSeams(faults);
    return [healthPortOf('18081', s), healthPortOf('9000', s), healthPortOf(undefined, s), healthPortOf('0', s), healthPortOf('65535', s)];
  };
  expect(read([])).toEqual([18081, 9000, 8081, 0, 65535]);
  expect(read(['ind9-agent-port-four-digits'])).toEqual([8081, 9000, 8081, 0, 8081]);
});
