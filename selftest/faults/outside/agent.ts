/**
 * Faults of the reference agent, applied from outside it: each is one record (its MOCK_FAULT name or
 * kind, what it does, the clauses the suite must fail on, and the change), and the change goes in through the agent's
 * seams (reference/agent/seams.ts), never through a branch of the agent. agent-plugin.ts applies those a
 * MOCK_FAULT list names (AGENT_PLUGINS=selftest/faults/outside/agent-plugin.ts).
 *
 * The records bend the seams by their shape alone: the agent's plugin is bundled apart from the agent
 * (support/run/embedded.mjs), so nothing here may count on being the agent's own copy of a module.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AgentSeams, Answer, Endpoint, EndpointAnswer, Moment } from '../../../reference/agent/seams';
import type { FaultKind } from '../catalogue/fault-kinds';
import type { NamedFaultRecord } from '../types';
import type { ClauseId } from '../../../support/document/clauses';
import { reaching } from './reaching';

/** A change to the agent: its seams, changed before it starts. */
export type AgentSeam = (seams: AgentSeams) => void;

export interface NamedAgentFault extends NamedFaultRecord {
  kind?: never;
  apply: AgentSeam;
}

type Row<K extends FaultKind['kind']> = Extract<FaultKind, { kind: K }>;
type AgentKind = 'agent-down' | 'agent-ready-late' | 'agent-health-dies' | 'agent-dies-late';

/** A parameterized kind: active when MOCK_FAULT holds rows of it (`kind:arg…`), applied with all of them. */
export type AgentKindFault = {
  [K in AgentKind]: { kind: K; clauses: ClauseId[]; apply: (rows: Array<Row<K>>) => AgentSeam };
}[AgentKind];

export type AgentFault = NamedAgentFault | AgentKindFault;

/** The port the document names when AGENT_HEALTH_PORT is unset, where the legacy listener stays. */
const LEGACY_HEALTH_PORT = 8081;
/** agent-ready-starting-500, agent-ready-flap, agent-health-500-steady: ms after the port opened. */
export const AGENT_BLIP = { startingMs: 150, fromMs: 150, toMs: 250 } as const;
/** agent-listener-gap: when the listener closes after the port opened, and for how long. */
const GAP = { afterMs: 150, forMs: 150 };
/** agent-close-before-exit: how long the process lives on after its listener closed at the end of the drain. */
const LINGER_MS = 2000;
/** How long the independent agent faults are wrong: 400 ms, but at most half of the drain. */
const agentFaultWindowMs = (drainMs: number): number => Math.min(400, Math.floor(drainMs / 2));
/** ind7-agent-liveness-before-first-heartbeat: how long after start liveness waits for the first heartbeat. */
const FIRST_HEARTBEAT_MS = 2000;
/** ind8-agent-liveness-after-error: how long after an error answer liveness reports unhealthy. */
const ERROR_WINDOW_MS = 1000;
/** ind9-agent-probe-throttle: probes per endpoint served in one second. */
const PROBES_PER_SECOND = 5;

const answer = (status: number, body: Record<string, unknown>): Answer => ({ status, body });
const OK = answer(200, { status: 'ok' });
const DRAINING = answer(503, { status: 'draining' });

/** One endpoint's answer bent: `bend` gets the moment, the request and the answer it would have given otherwise. */
const endpoint =
  (e: Endpoint, bend: (m: Moment, req: IncomingMessage, inner: () => Answer | null) => Answer | null): AgentSeam =>
  (seams) => {
    const inner: EndpointAnswer = seams.endpoints[e];
    seams.endpoints[e] = (m, req) => bend(m, req, () => inner(m, req));
  };

/** That answer at the moments `when` picks, and the endpoint's own at the others. */
const answersAt = (e: Endpoint, when: (m: Moment) => boolean, a: Answer | null): AgentSeam => endpoint(e, (m, _req, inner) => (when(m) ? a : inner()));

const draining = (m: Moment) => m.phase === 'draining';
/** ms since SIGTERM (the drain), while draining. */
const drained = (m: Moment) => (draining(m) ? m.sinceSigtermMs! : null);
/** In the last `ms` of the drain. */
const lastOfDrain = (ms: (m: Moment) => number) => (m: Moment) => draining(m) && m.sinceSigtermMs! >= m.drainMs - ms(m);
/** The last stretch the independent agent faults are wrong in: 400 ms, at most half of the drain. */
const lastWindow = lastOfDrain((m) => agentFaultWindowMs(m.drainMs));
/** ms since the port opened while the agent runs; null while draining or unknown. */
const sinceOpenRunning = (m: Moment) => (draining(m) || m.sinceOpenMs === undefined ? null : m.sinceOpenMs);
const inBlip = (m: Moment) => {
  const t = sinceOpenRunning(m);
  return t !== null && t >= AGENT_BLIP.fromMs && t < AGENT_BLIP.toMs;
};

/** Liveness reports an error rate: 503 for a second after the agent answered a request as a path it does not serve. */
const livenessAfterError: AgentSeam = (seams) => {
  let lastErrorAt: number | null = null;
  const other = seams.otherPath;
  seams.otherPath = (m) => {
    lastErrorAt = m.now;
    return other(m);
  };
  answersAt(
    'liveness',
    (m) => lastErrorAt !== null && m.now - lastErrorAt < ERROR_WINDOW_MS,
    answer(503, { status: 'unhealthy', reason: 'errors in the last second' }),
  )(seams);
};

/** The seams the legacy listener was added to (two names of one fault add one listener). */
const withLegacyListener = new WeakSet<AgentSeams>();
/** /health stayed on the legacy listener of port 8081, which the configured port is not (none when the system picks the port). */
const healthOnLegacyPort: AgentSeam = (seams) => {
  if (withLegacyListener.has(seams)) return;
  withLegacyListener.add(seams);
  answersAt('health', (m) => m.port !== undefined && m.port !== LEGACY_HEALTH_PORT, null)(seams);
  const open = seams.listener.open;
  seams.listener.open = (agent, port) => {
    open(agent, port);
    const configured = agent.state.port;
    if (configured === undefined || configured === 0 || configured === LEGACY_HEALTH_PORT) return;
    const health = agent.servedOn(LEGACY_HEALTH_PORT);
    const legacy = createServer((req, res) => {
      if ((req.url ?? '/').split('?')[0] === '/health') return health(req, res);
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
      res.end(JSON.stringify({ status: 'not found' }));
    });
    legacy.on('error', (err) => agent.say(`reference agent: no legacy listener on ${LEGACY_HEALTH_PORT}: ${err.message}`));
    legacy.listen(LEGACY_HEALTH_PORT, agent.host);
  };
};

/** The endpoints fenced "against probe storms": a few probes per second each, more answered 429 (during the drain too). */
const probeThrottle: AgentSeam = (seams) => {
  const probes = new Map<Endpoint, number[]>();
  for (const e of ['readiness', 'liveness', 'health'] as const)
    endpoint(e, (m, _req, inner) => {
      const recent = (probes.get(e) ?? []).filter((t) => m.now - t < 1000);
      probes.set(e, [...recent, m.now]);
      return recent.length >= PROBES_PER_SECOND ? answer(429, { status: 'too many probes' }) : inner();
    })(seams);
};

/**
 * In the order they are applied: a record applied later wraps those before it, so its answer comes first.
 * Readiness, liveness and /health each in the order of the checks of the agent that once held them.
 */
export const AGENT_FAULTS: readonly AgentFault[] = reaching(
  ['agent'],
  [
    // ---- readiness while draining: 200 where it must be 503 (AG-5) --------------------------------------
    { name: 'agent-ready-during-shutdown', what: 'readiness stays 200 while draining', clauses: ['AG-5'], apply: answersAt('readiness', draining, OK) },
    {
      kind: 'agent-ready-late',
      clauses: ['AG-5'],
      apply: (rows) => {
        const late = Math.max(0, ...rows.map((r) => r.ms));
        return answersAt('readiness', (m) => (drained(m) ?? Infinity) < late, OK);
      },
    },
    // Readiness flips only once the running checks are cancelled, a little later.
    {
      name: 'ind-agent-late-draining',
      what: 'readiness stays 200 for the first 400 ms after SIGTERM',
      list: 'independent',
      clauses: ['AG-5'],
      apply: answersAt('readiness', (m) => (drained(m) ?? Infinity) < agentFaultWindowMs(m.drainMs), OK),
    },
    // The last part of the drain is the "stopping" state, which readiness does not know.
    {
      name: 'ind6-agent-ready-again-stopping',
      what: 'readiness answers 200 again in the last 400 ms of the drain ("stopping" is not "draining")',
      list: 'independent-6',
      clauses: ['AG-5'],
      apply: answersAt('readiness', lastWindow, OK),
    },
    // ---- readiness while running (AG-1) ----------------------------------------------------------------
    { name: 'agent-ready-503', what: 'readiness always answers 503', clauses: ['AG-1'], apply: answersAt('readiness', () => true, DRAINING) },
    {
      name: 'agent-ready-flap',
      what: 'readiness answers 503 from 150 to 250 ms after the port opens, after it reported ready (not while draining)',
      clauses: ['AG-1'],
      apply: answersAt('readiness', inBlip, answer(503, { status: 'not ready' })),
    },
    {
      name: 'agent-ready-starting-500',
      what: 'readiness answers 500 (not 503) while the agent starts, the first 150 ms after the port opens',
      clauses: ['AG-1'],
      apply: answersAt(
        'readiness',
        (m) => {
          const t = sinceOpenRunning(m);
          return t !== null && t < AGENT_BLIP.startingMs;
        },
        answer(500, { status: 'starting' }),
      ),
    },
    // ---- liveness and /health, innermost first ---------------------------------------------------------
    // Liveness reports the error rate of the last second, and a 404 counts as an error.
    {
      name: 'agent-liveness-after-error',
      what: 'liveness answers 503 for a second after the agent answered any request with a 4xx',
      clauses: ['AG-2'],
      apply: livenessAfterError,
    },
    {
      name: 'ind8-agent-liveness-after-error',
      what: 'liveness answers 503 for a second after the agent answered any request with an error (an error-rate indicator counting 4xx answers)',
      list: 'independent-8',
      clauses: ['AG-2'],
      apply: livenessAfterError,
    },
    // The JSON endpoint negotiates, and only an Accept that names application/json is served.
    {
      name: 'ind8-agent-health-accept-json',
      what: '/health answers 406 unless the request accepts application/json explicitly (a client sending */* is refused)',
      list: 'independent-8',
      clauses: ['AG-3'],
      apply: endpoint('health', (_m, req, inner) =>
        String(req.headers.accept ?? '').includes('application/json') ? inner() : answer(406, { status: 'not acceptable', accepts: 'application/json' }),
      ),
    },
    {
      name: 'agent-health-500-steady',
      what: '/health answers 500 from 150 to 250 ms after the port opens (not while draining)',
      clauses: ['AG-3'],
      apply: answersAt('health', inBlip, answer(500, { status: 'error' })),
    },
    // /health and liveness must stay 200 until the exit (AG-5); these make one of them fall early.
    {
      kind: 'agent-health-dies',
      clauses: ['AG-5', 'AG-3'],
      apply: (rows) => (seams) => {
        for (const e of new Set(rows.map((r) => r.endpoint))) answersAt(e, draining, DRAINING)(seams);
      },
    },
    {
      name: 'agent-liveness-dies-on-shutdown',
      what: 'liveness answers 503 while draining',
      clauses: ['AG-5'],
      apply: answersAt('liveness', draining, DRAINING),
    },
    {
      kind: 'agent-dies-late',
      clauses: ['AG-5', 'AG-3'],
      apply: (rows) => (seams) => {
        for (const e of new Set(rows.map((r) => r.endpoint))) {
          const late = Math.max(0, ...rows.filter((r) => r.endpoint === e).map((r) => r.ms));
          if (late > 0)
            answersAt(
              e,
              lastOfDrain(() => late),
              DRAINING,
            )(seams);
        }
      },
    },
    // Liveness reports the workers, which stop before the server does.
    {
      name: 'ind-agent-liveness-fails-before-exit',
      what: 'liveness answers 503 for the last 400 ms before exit',
      list: 'independent',
      clauses: ['AG-5'],
      apply: answersAt('liveness', lastWindow, DRAINING),
    },
    // Liveness reports the heartbeat loop, which first beats 2 s after start.
    {
      name: 'ind7-agent-liveness-before-first-heartbeat',
      what: 'liveness answers 503 for the first 2 s after start, until the first heartbeat',
      list: 'independent-7',
      clauses: ['AG-2'],
      apply: answersAt('liveness', (m) => m.sinceOpenMs !== undefined && m.sinceOpenMs < FIRST_HEARTBEAT_MS, answer(503, { status: 'starting' })),
    },
    { name: 'agent-liveness-500', what: 'liveness answers 500', clauses: ['AG-2'], apply: answersAt('liveness', () => true, answer(500, { status: 'error' })) },
    {
      name: 'agent-liveness-first-503',
      what: 'liveness answers 503 to the first request it serves (before its first heartbeat), 200 after',
      clauses: ['AG-2'],
      apply: (seams) => {
        let served = 0;
        endpoint('liveness', (_m, _req, inner) => (served++ === 0 ? answer(503, { status: 'starting' }) : inner()))(seams);
      },
    },
    {
      name: 'agent-health-legacy-port',
      what: '/health answers on the default port 8081 only, not on the port given in AGENT_HEALTH_PORT',
      clauses: ['AG-3', 'AG-4'],
      apply: healthOnLegacyPort,
    },
    {
      name: 'ind7-agent-health-legacy-port',
      what: '/health is left on the legacy 8081 listener: on the port set by AGENT_HEALTH_PORT it answers 404',
      list: 'independent-7',
      clauses: ['AG-3', 'AG-4'],
      apply: healthOnLegacyPort,
    },
    { name: 'agent-no-health', what: '/health answers 404', clauses: ['AG-3'], apply: answersAt('health', () => true, null) },
    // ---- any endpoint, ahead of its own answer ---------------------------------------------------------
    // One endpoint fails while the agent runs (not during the drain: the drain faults' part). The first row of an endpoint counts.
    {
      kind: 'agent-down',
      clauses: ['AG-1', 'AG-2', 'AG-3'],
      apply: (rows) => (seams) => {
        for (const e of new Set(rows.map((r) => r.endpoint))) {
          const { status } = rows.find((r) => r.endpoint === e)!;
          answersAt(e, (m) => !draining(m), answer(status, { status: 'error' }))(seams);
        }
      },
    },
    {
      name: 'ind9-agent-probe-throttle',
      what: 'each health endpoint serves 5 probes per second; more are answered 429 (during the drain too)',
      list: 'independent-9',
      clauses: ['AG-5', 'AG-2'],
      apply: probeThrottle,
    },
    // ---- the port (AG-4) ----------------------------------------------------------------------------------
    // Unset, the port is the system's choice (0) instead of the documented default.
    {
      name: 'agent-default-port',
      what: 'without AGENT_HEALTH_PORT the agent listens on a port of its own choosing, not 8081',
      clauses: ['AG-4'],
      apply: (seams) => void (seams.healthPort.unset = 0),
    },
    // AGENT_HEALTH_PORT read by a four-digit pattern: anything longer (10000 and above) falls back to the default.
    {
      name: 'ind9-agent-port-four-digits',
      what: 'AGENT_HEALTH_PORT is read by a four-digit pattern: a port above 9999 falls back to 8081',
      list: 'independent-9',
      clauses: ['AG-4'],
      apply: (seams) => {
        const given = seams.healthPort.given;
        seams.healthPort.given = (text, port) => (/^\d{1,4}$/.test(text.trim()) ? given(text, port) : LEGACY_HEALTH_PORT);
      },
    },
    // The port kept in a signed 16-bit field: from 32768 on it does not fit, and the default is served instead (the suite gives a high port).
    {
      name: 'agent-port-int16',
      // Found by a first-sight fault (a port of the dynamic range ignored): the agent is given a high port.
      what: 'AGENT_HEALTH_PORT above 32767 does not fit a signed 16-bit field: the default port is served',
      clauses: ['AG-4'],
      apply: (seams) => {
        const given = seams.healthPort.given;
        seams.healthPort.given = (text, port) => (Number(text.trim()) > 32_767 ? LEGACY_HEALTH_PORT : given(text, port));
      },
    },
    // The classic bug of a hard-coded offset; 0 stays 0 so tests can still pick a port.
    {
      name: 'agent-ignore-port',
      what: 'agent listens on AGENT_HEALTH_PORT+1',
      clauses: ['AG-4'],
      apply: (seams) => {
        const port = seams.listener.port;
        seams.listener.port = (configured) => (configured === 0 ? 0 : port(configured) + 1);
      },
    },
    // ---- the listener and the shutdown -------------------------------------------------------------------
    // The listener closes a moment after the port opened and listens again a moment later, the process alive throughout.
    {
      name: 'agent-listener-gap',
      what: 'the listener closes 150 ms after the port opens and listens again 150 ms later, the process alive throughout',
      clauses: ['AG-1', 'AG-2', 'AG-3'],
      apply: (seams) => {
        const open = seams.listener.open;
        seams.listener.open = (agent, port) => {
          open(agent, port);
          agent.server.once('listening', () =>
            setTimeout(() => {
              agent.server.close();
              agent.server.closeAllConnections();
              setTimeout(() => agent.server.listen(port, agent.host), GAP.forMs);
            }, GAP.afterMs),
          );
        };
      },
    },
    // "Graceful" read as server.close() first, then wait out the drain: probes are refused during it.
    {
      name: 'ind6-agent-close-listener-first',
      what: 'on SIGTERM the listener is closed at once: probes are refused during the drain instead of 503/200',
      list: 'independent-6',
      clauses: ['AG-5'],
      apply: (seams) => {
        seams.life.sigterm = (agent) => {
          agent.server.close();
          agent.server.closeIdleConnections();
          agent.say(`reference agent draining for ${agent.state.drainMs} ms`);
          setTimeout(() => agent.exit(0), agent.state.drainMs);
        };
      },
    },
    // No drain at all, so no one ever sees readiness fall before the port closes.
    {
      name: 'agent-exit-at-once',
      what: 'on SIGTERM the agent exits at once, readiness never answers 503',
      list: 'generated',
      clauses: ['AG-5'],
      apply: (seams) => void (seams.life.sigterm = (agent) => agent.exit(0)),
    },
    // After the drain the listener closes long before the process exits (a slow clean-up after the server stopped).
    {
      name: 'agent-close-before-exit',
      what: 'after the drain the listener closes 2 s before the process exits (a slow clean-up after the server stopped)',
      clauses: ['AG-2', 'AG-3', 'AG-5'],
      apply: (seams) => void (seams.life.exit = (agent) => void setTimeout(() => agent.exit(0), LINGER_MS)),
    },
  ],
);
