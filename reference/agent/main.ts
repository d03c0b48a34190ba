// The private-location agent stand-in: health endpoints on AGENT_HEALTH_PORT (8081), and on SIGTERM
// a drain of AGENT_DRAIN_MS during which readiness is 503 and liveness stays 200, then exit 0.
// AGENT_PLUGINS names modules that may change its rules (seams.ts) before it starts.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { healthHandler, healthPortOf } from './health';
import { makeAgentSeams, type Agent, type AgentPlugin, type AgentSeams, type AgentState } from './seams';

function fail(message: string): never {
  process.stderr.write(`reference agent: ${message}\n`);
  process.exit(2);
}

function intEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < min || n > max) fail(`${name}: expected an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

/**
 * Each module AGENT_PLUGINS names (comma-separated, paths from the working folder), its default export (or
 * the module itself) called with the seams. Loaded with require, so that it may be TypeScript under tsx, or
 * the bundle embedded.mjs made of it. A missing file, or a plugin that refuses its settings, is bad
 * configuration: one line, exit 2.
 */
async function applyPlugins(seams: AgentSeams): Promise<void> {
  const paths = (process.env.AGENT_PLUGINS ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const p of paths) if (!existsSync(resolve(p))) fail(`AGENT_PLUGINS: no such file: "${p}"`);
  for (const file of paths.map((p) => resolve(p))) {
    const mod = require(file) as { default?: AgentPlugin } | AgentPlugin; // eslint-disable-line @typescript-eslint/no-require-imports
    const plugin = typeof mod === 'function' ? mod : mod.default;
    if (typeof plugin !== 'function') fail(`AGENT_PLUGINS: ${file} exports no plugin (a function as its default export)`);
    try {
      await plugin(seams);
    } catch (e) {
      fail(`AGENT_PLUGINS: ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

async function main(): Promise<void> {
  const seams = makeAgentSeams();
  await applyPlugins(seams);
  let port: number;
  try {
    port = healthPortOf(process.env.AGENT_HEALTH_PORT, seams);
  } catch (e) {
    fail((e as Error).message);
  }
  const drainMs = intEnv('AGENT_DRAIN_MS', seams.drainMs, 0, 600_000);
  const state: AgentState = { drainingSince: null, drainMs, port };
  const host = '127.0.0.1';
  const agent: Agent = {
    state,
    server: createServer(healthHandler(state, seams)),
    host,
    // Another port's view of the same (live) state: every field but the port read through to it.
    servedOn: (p) => healthHandler(Object.create(state, { port: { value: p } }) as AgentState, seams),
    say: (line) => process.stdout.write(`${line}\n`),
    exit: (code) => process.exit(code),
  };
  const listenPort = seams.listener.port(port);
  agent.server.once('listening', () => {
    state.startedAt = Date.now();
    const address = agent.server.address();
    const actual = typeof address === 'object' && address ? address.port : listenPort;
    agent.say(`reference agent health endpoints listening on http://${host}:${actual}`);
  });
  agent.server.on('error', (err) => fail(`cannot listen on port ${listenPort}: ${err.message}`));
  seams.listener.open(agent, listenPort);
  process.once('SIGTERM', () => seams.life.sigterm(agent));
  process.once('SIGINT', () => process.exit(0));
}

main().catch((err) => {
  process.stderr.write(`reference agent: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
