// What the independent fault lists' unit tests share: a service with a fault must stay usable apart from
// its bug, and an agent started on a free port with a fault and a drain, probed around its SIGTERM.
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import type { FaultName } from '../faults/catalogue/faults';
import { call, put, SEEDED_API_CHECK_ID } from './reference-testing';
import { service } from './reference-service';
import { AGENT_FAULTS_PLUGIN } from '../faults/outside/agent-plugin';

/**
 * Each distinct document validated once per worker: most faults serve the clean one, and every validation
 * compiles the OpenAPI schema anew (a tenth of a second). A document that fails fails each time it is served.
 */
const validations = new Map<string, Promise<unknown>>();
const validateOnce = (doc: unknown) => {
  const text = JSON.stringify(doc);
  if (!validations.has(text)) validations.set(text, SwaggerParser.validate(JSON.parse(text)));
  return validations.get(text)!;
};

/** With each fault, the served document is valid OpenAPI and ordinary requests are served. */
export async function expectUsableWith(faults: FaultName[]): Promise<void> {
  for (const fault of faults) {
    const app = await service([fault]);
    try {
      await validateOnce((await call(app, { url: '/openapi.json', headers: {} })).body);
      expect((await call(app, { url: '/v1/runtimes/2025.04' })).status, fault).toBe(200);
      expect((await call(app, { url: `/v1/checks/${SEEDED_API_CHECK_ID}` })).status, fault).toBe(200);
      expect((await put(app, { name: 'renamed', frequency: 5, frequencyOffset: 50, locations: ['eu-west-1'] })).status, fault).toBe(200);
    } finally {
      await app.close();
    }
  }
}

const ROOT = resolve(__dirname, '../..');
export interface Agent {
  proc: ChildProcess;
  port: number;
  exited: Promise<number | null>;
}

const freePort = () =>
  new Promise<number>((ok, ko) => {
    const s = createServer()
      .once('error', ko)
      .listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => ok(p));
      });
  });

async function startAgent(faults: FaultName[], drainMs: number): Promise<Agent> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['support/run/embedded.mjs', 'reference/agent/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, AGENT_PLUGINS: AGENT_FAULTS_PLUGIN, AGENT_HEALTH_PORT: String(port), AGENT_DRAIN_MS: String(drainMs), MOCK_FAULT: faults.join(',') },
  });
  const exited = new Promise<number | null>((ok) => proc.once('exit', (code) => ok(code)));
  await new Promise<void>((ok, ko) => {
    proc.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('listening')) ok();
    });
    proc.once('exit', (code) => ko(new Error(`agent exited with ${code}`)));
  });
  return { proc, port, exited };
}

const probeAgent = async (port: number, path: string) => {
  try {
    return (await fetch(`http://127.0.0.1:${port}${path}`)).status;
  } catch {
    return 'refused';
  }
};
const sleepUntil = (t0: number, ms: number) => new Promise((r) => setTimeout(r, Math.max(0, t0 + ms - Date.now())));

/** SIGTERM at t0, then the statuses of each [moment (ms after t0), path]; drain 1500 ms. */
export async function afterSigterm(faults: FaultName[], probes: Array<[number, string]>) {
  const a = await startAgent(faults, 1500);
  try {
    expect(await probeAgent(a.port, '/-/readiness')).toBe(200);
    const t0 = Date.now();
    a.proc.kill('SIGTERM');
    const out: unknown[] = [];
    for (const [m, path] of probes) {
      await sleepUntil(t0, m);
      out.push(await probeAgent(a.port, path));
    }
    expect(await a.exited).toBe(0);
    return out;
  } finally {
    a.proc.kill('SIGKILL');
  }
}

/** The measured list names every fault of the catalogue, each with clauses and suite files that exist. */
export function expectMeasured(catalogue: Record<string, string>, measured: ReadonlyArray<{ fault: string; clauses: string[]; files: string[] }>): void {
  expect(measured.map((m) => m.fault).sort()).toEqual(Object.keys(catalogue).sort());
  for (const m of measured) {
    expect(m.clauses.length, m.fault).toBeGreaterThan(0);
    for (const c of m.clauses) expect(c, m.fault).toMatch(/^(SPEC|AUTH|RT|ERR|RL|CU|FO|AG)-\d+$/);
    for (const f of m.files) expect(/^tests\/[\w-]+\.spec\.ts$/.test(f) && existsSync(resolve(ROOT, f)), `${m.fault}: ${f} is a test file`).toBe(true);
  }
}

/**
 * What every generation of independent faults is held to here: its catalogue (25 faults named
 * `ind<n>-*`, each measured), and the service still usable with every service fault but `unusable`
 * (whose breakage is the document or an ordinary read). That each service fault breaks the reference is
 * shown by the generated probe (fault-probes.spec.ts); the agent's faults have tests of their own.
 */
export function testGeneration(
  n: number,
  catalogue: Record<string, string>,
  measured: ReadonlyArray<{ fault: string; clauses: string[]; files: string[] }>,
  unusable: readonly string[] = [],
): void {
  test(`independent faults ${n}: all in the catalogue, named ind${n}-*, each with a measured entry`, () => {
    expect(Object.keys(catalogue)).toHaveLength(25);
    for (const f of Object.keys(catalogue)) expect(f).toMatch(new RegExp(`^ind${n}-(spec|auth|rt|err|rl|cu|fo|agent)-[a-z0-9-]+$`));
    expectMeasured(catalogue, measured);
  });
  test(`independent faults ${n}: the served document stays valid OpenAPI, and ordinary requests stay 200`, async () => {
    // A service per fault, one after another: on a loaded machine (npm test runs its parts side by side) more than 30 s.
    test.setTimeout(120_000);
    const service = Object.keys(catalogue).filter((f) => !f.startsWith(`ind${n}-agent-`) && !unusable.includes(f));
    await expectUsableWith(service as FaultName[]);
  });
}
