// The agent's three health endpoints as a plain request handler over a small state: ready, or draining
// since some moment for a known time. The drain faults decide per endpoint and per moment of the drain.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentEndpoint, AnyAgentEndpoint } from '../fault-kinds';
import type { Faults } from '../faults';
import { agentFaultWindowMs, ERROR_WINDOW_MS, FIRST_HEARTBEAT_MS, PROBES_PER_SECOND } from '../independent-faults';

const ENDPOINT_OF_PATH: Readonly<Record<string, AnyAgentEndpoint>> = { '/-/readiness': 'readiness', '/-/liveness': 'liveness', '/health': 'health' };

export interface AgentState {
  /** When SIGTERM arrived (clock ms); null while the agent runs normally. */
  drainingSince: number | null;
  drainMs: number;
  /** When the listener came up (clock ms); unset in tests that drive the handler alone. */
  startedAt?: number;
  /** The port the endpoints were configured on (AGENT_HEALTH_PORT, 8081 when unset); unset in tests that drive the handler alone. */
  port?: number;
}

/** The documented default port, on which the legacy /health listener of ind7-agent-health-legacy-port lives. */
export const LEGACY_HEALTH_PORT = 8081;

/**
 * ind9-agent-port-four-digits: the port the agent listens on for a valid AGENT_HEALTH_PORT value. With the fault the value is
 * read by a four-digit pattern, and anything longer (10000 and above) falls back to the default.
 */
export function healthPortOf(raw: string | undefined, port: number, faults: Faults): number {
  if (faults.has('ind9-agent-port-four-digits') && raw !== undefined && raw !== '' && !/^\d{1,4}$/.test(raw.trim())) return LEGACY_HEALTH_PORT;
  return port;
}

/** The start-up and steady-state faults (agent-ready-starting-500, agent-ready-flap, agent-health-500-steady): ms after the port opened. */
export const AGENT_BLIP = { startingMs: 150, fromMs: 150, toMs: 250 } as const;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  res.end(JSON.stringify(body));
}

export function healthHandler(state: AgentState, faults: Faults, clock: () => number = Date.now) {
  /** ms since SIGTERM, or null when not draining. */
  const drained = () => (state.drainingSince === null ? null : clock() - state.drainingSince);
  /** /health and liveness must stay 200 until the exit; the faults make one of them fall early. */
  const dies = (endpoint: AgentEndpoint) => {
    const t = drained();
    if (t === null) return false;
    const late = faults.diesLateMs(endpoint);
    // ind-agent-liveness-fails-before-exit: liveness reports the workers, which stop before the server does.
    const workersGone = endpoint === 'liveness' && faults.has('ind-agent-liveness-fails-before-exit') && t >= state.drainMs - agentFaultWindowMs(state.drainMs);
    return faults.healthDies(endpoint) || (late > 0 && t >= state.drainMs - late) || workersGone;
  };
  /** ind8-agent-liveness-after-error: when the agent last answered a request with a 4xx. */
  let lastErrorAt: number | null = null;
  const notFound = (res: ServerResponse) => {
    lastErrorAt = clock();
    json(res, 404, { status: 'not found' });
  };
  /** ms since the port opened while the agent runs (not draining); null otherwise. */
  const sinceOpen = () => (state.startedAt === undefined || drained() !== null ? null : clock() - state.startedAt);
  const inBlip = () => {
    const t = sinceOpen();
    return t !== null && t >= AGENT_BLIP.fromMs && t < AGENT_BLIP.toMs;
  };
  /** agent-liveness-first-503: liveness requests served so far. */
  let livenessServed = 0;
  /** ind9-agent-probe-throttle: when each endpoint was probed in the last second. */
  const probes = new Map<string, number[]>();
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return notFound(res);
    // ind9-agent-probe-throttle: the endpoints fenced "against probe storms", a few probes per second each.
    if (faults.has('ind9-agent-probe-throttle') && ENDPOINT_OF_PATH[path]) {
      const now = clock();
      const recent = (probes.get(path) ?? []).filter((t) => now - t < 1000);
      probes.set(path, [...recent, now]);
      if (recent.length >= PROBES_PER_SECOND) return json(res, 429, { status: 'too many probes' });
    }
    // agent-down: one endpoint fails while the agent runs (not during the drain: the drain faults' part).
    const name = ENDPOINT_OF_PATH[path];
    const down = name && drained() === null ? faults.agentDownStatus(name) : undefined;
    if (down) return json(res, down, { status: 'error' });
    switch (path) {
      case '/-/readiness': {
        // While draining, a load balancer must stop sending work: 503. The faults get this wrong.
        const t = drained();
        // ind-agent-late-draining: readiness flips only once the running checks are cancelled, a little later.
        const late = faults.has('ind-agent-late-draining') ? Math.max(faults.readyLateMs(), agentFaultWindowMs(state.drainMs)) : faults.readyLateMs();
        // ind6-agent-ready-again-stopping: the last part of the drain is the "stopping" state, which readiness does not know.
        const stopping = faults.has('ind6-agent-ready-again-stopping') && t !== null && t >= state.drainMs - agentFaultWindowMs(state.drainMs);
        const t0 = sinceOpen();
        if (faults.has('agent-ready-starting-500') && t0 !== null && t0 < AGENT_BLIP.startingMs) return json(res, 500, { status: 'starting' });
        if (faults.has('agent-ready-flap') && inBlip()) return json(res, 503, { status: 'not ready' });
        const ready = !faults.has('agent-ready-503') && (t === null || faults.has('agent-ready-during-shutdown') || t < late || stopping);
        return ready ? json(res, 200, { status: 'ok' }) : json(res, 503, { status: 'draining' });
      }
      case '/-/liveness':
        if (faults.has('agent-liveness-first-503') && livenessServed++ === 0) return json(res, 503, { status: 'starting' });
        if (faults.has('agent-liveness-500')) return json(res, 500, { status: 'error' });
        // ind7-agent-liveness-before-first-heartbeat: liveness reports the heartbeat loop, which first beats 2 s after start.
        if (faults.has('ind7-agent-liveness-before-first-heartbeat') && state.startedAt !== undefined && clock() - state.startedAt < FIRST_HEARTBEAT_MS)
          return json(res, 503, { status: 'starting' });
        if (dies('liveness')) return json(res, 503, { status: 'draining' });
        // ind8-agent-liveness-after-error: liveness reports the error rate of the last second, and a 404 counts as an error.
        if (
          (faults.has('ind8-agent-liveness-after-error') || faults.has('agent-liveness-after-error')) &&
          lastErrorAt !== null &&
          clock() - lastErrorAt < ERROR_WINDOW_MS
        )
          return json(res, 503, { status: 'unhealthy', reason: 'errors in the last second' });
        return json(res, 200, { status: 'ok' });
      case '/health':
        if (faults.has('agent-no-health')) break;
        // ind7-agent-health-legacy-port: /health stayed on the legacy listener of port 8081, which the configured port is not.
        if (
          (faults.has('ind7-agent-health-legacy-port') || faults.has('agent-health-legacy-port')) &&
          state.port !== undefined &&
          state.port !== LEGACY_HEALTH_PORT
        )
          break;
        if (dies('health')) return json(res, 503, { status: 'draining' });
        if (faults.has('agent-health-500-steady') && inBlip()) return json(res, 500, { status: 'error' });
        // ind8-agent-health-accept-json: the JSON endpoint negotiates, and only an Accept that names application/json is served.
        if (faults.has('ind8-agent-health-accept-json') && !String(req.headers.accept ?? '').includes('application/json'))
          return json(res, 406, { status: 'not acceptable', accepts: 'application/json' });
        return json(res, 200, { status: 'ok' });
    }
    return notFound(res);
  };
}

/** ind7-agent-health-legacy-port: the legacy listener's handler, /health alone, over the agent's own (live) state. */
export function legacyHealthHandler(state: AgentState, faults: Faults) {
  const inner = healthHandler(Object.create(state, { port: { value: LEGACY_HEALTH_PORT } }) as AgentState, faults);
  return (req: IncomingMessage, res: ServerResponse): void =>
    (req.url ?? '/').split('?')[0] === '/health' ? inner(req, res) : json(res, 404, { status: 'not found' });
}
