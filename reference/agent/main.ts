// The private-location agent stand-in: health endpoints on AGENT_HEALTH_PORT (8081), and on SIGTERM
// a drain of AGENT_DRAIN_MS during which readiness is 503 and liveness stays 200, then exit 0.
import { createServer } from 'node:http';
import { parseFaults, type Faults } from '../faults';
import { healthHandler, healthPortOf, LEGACY_HEALTH_PORT, legacyHealthHandler, type AgentState } from './health';

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

let faults: Faults;
try {
  faults = parseFaults(process.env.MOCK_FAULT);
} catch (e) {
  fail((e as Error).message);
}
// agent-default-port: unset, the port is the system's choice (0) instead of the documented default.
// ind9-agent-port-four-digits: a value of five digits read as "no port given" (see healthPortOf).
const port = healthPortOf(process.env.AGENT_HEALTH_PORT, intEnv('AGENT_HEALTH_PORT', faults.has('agent-default-port') ? 0 : 8081, 0, 65535), faults);
const drainMs = intEnv('AGENT_DRAIN_MS', 300, 0, 600_000);
const state: AgentState = { drainingSince: null, drainMs, port };
const server = createServer(healthHandler(state, faults));
// agent-ignore-port: the classic bug of a hard-coded offset; 0 stays 0 so tests can still pick a port.
const listenPort = faults.has('agent-ignore-port') && port !== 0 ? port + 1 : port;

server.listen(listenPort, '127.0.0.1', () => {
  state.startedAt = Date.now();
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : listenPort;
  process.stdout.write(`reference agent health endpoints listening on http://127.0.0.1:${actual}\n`);
});
server.on('error', (err) => fail(`cannot listen on port ${listenPort}: ${err.message}`));

/** agent-listener-gap: when the listener closes after the port opened, and for how long. */
const GAP = { afterMs: 150, forMs: 150 };
/** agent-close-before-exit: how long the process lives on after its listener closed at the end of the drain. */
const LINGER_MS = 2000;
if (faults.has('agent-listener-gap'))
  server.once('listening', () =>
    setTimeout(() => {
      server.close();
      server.closeAllConnections();
      setTimeout(() => server.listen(listenPort, '127.0.0.1'), GAP.forMs);
    }, GAP.afterMs),
  );

// ind7-agent-health-legacy-port: /health stayed on the legacy listener of 8081 (none when the system picks the port).
if ((faults.has('ind7-agent-health-legacy-port') || faults.has('agent-health-legacy-port')) && port !== 0 && port !== LEGACY_HEALTH_PORT) {
  const legacy = createServer(legacyHealthHandler(state, faults));
  legacy.on('error', (err) => process.stdout.write(`reference agent: no legacy listener on ${LEGACY_HEALTH_PORT}: ${err.message}\n`));
  legacy.listen(LEGACY_HEALTH_PORT, '127.0.0.1');
}

process.once('SIGTERM', () => {
  // agent-exit-at-once: no drain at all, so no one ever sees readiness fall before the port closes.
  if (faults.has('agent-exit-at-once')) process.exit(0);
  // ind6-agent-close-listener-first: "graceful" read as server.close() first, then wait out the drain.
  if (faults.has('ind6-agent-close-listener-first')) {
    server.close();
    server.closeIdleConnections();
    process.stdout.write(`reference agent draining for ${drainMs} ms\n`);
    setTimeout(() => process.exit(0), drainMs);
    return;
  }
  state.drainingSince = Date.now();
  process.stdout.write(`reference agent draining for ${drainMs} ms\n`);
  setTimeout(() => {
    server.close(() => (faults.has('agent-close-before-exit') ? setTimeout(() => process.exit(0), LINGER_MS) : process.exit(0)));
    server.closeAllConnections();
  }, drainMs);
});
process.once('SIGINT', () => process.exit(0));
