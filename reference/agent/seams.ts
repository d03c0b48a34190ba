// The agent's rules as data and small functions, read where they apply (main.ts, health.ts), so that a
// plugin from outside (AGENT_PLUGINS) may change one before the agent starts. Each is named after the rule
// of the document it is: the health endpoints (AG-1..3), their port (AG-4), the shutdown (AG-5).
import type { IncomingMessage, RequestListener, Server } from 'node:http';

/** The three health endpoints, by name. */
export type Endpoint = 'readiness' | 'liveness' | 'health';

/** The port the document names for the endpoints when AGENT_HEALTH_PORT is unset. */
export const DOCUMENTED_HEALTH_PORT = 8081;

export interface AgentState {
  /** When SIGTERM arrived (clock ms); null while the agent runs normally. */
  drainingSince: number | null;
  drainMs: number;
  /** When the listener came up (clock ms); unset in tests that drive the handler alone. */
  startedAt?: number;
  /** The port the endpoints were configured on (AGENT_HEALTH_PORT, 8081 when unset); unset in tests that drive the handler alone. */
  port?: number;
}

/** Where the agent is in its life when a request arrives. */
export interface Moment {
  /** The clock's reading (ms). */
  now: number;
  /** Running until SIGTERM, draining after it, until the exit. */
  phase: 'running' | 'draining';
  /** ms since the listener came up; unset when unknown (a handler driven alone). */
  sinceOpenMs?: number;
  /** ms since SIGTERM; unset while running. */
  sinceSigtermMs?: number;
  /** How long the drain lasts. */
  drainMs: number;
  /** The port the endpoints were configured on; unset when unknown. */
  port?: number;
}

/** An answer: a status and its JSON body. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export const OK: Answer = { status: 200, body: { status: 'ok' } };
/** What readiness says while the agent drains. */
export const DRAINING: Answer = { status: 503, body: { status: 'draining' } };
export const NOT_FOUND: Answer = { status: 404, body: { status: 'not found' } };

/** What an endpoint answers at a moment, for this request; null: no such endpoint here (answered as any other path). */
export type EndpointAnswer = (m: Moment, req: IncomingMessage) => Answer | null;

/** The running agent, as the seams of its life see it. */
export interface Agent {
  state: AgentState;
  /** The listener of the endpoints. */
  server: Server;
  host: string;
  /** The agent's endpoints over its own state, as served by a listener configured on `port`. */
  servedOn: (port: number) => RequestListener;
  /** One line on standard output. */
  say: (line: string) => void;
  exit: (code: number) => void;
}

export interface AgentSeams {
  /** AG-4: the port of the endpoints: `unset` when AGENT_HEALTH_PORT is, else the port its value (text, number) names. */
  healthPort: { unset: number; given: (text: string, port: number) => number };
  /** How long the drain lasts when AGENT_DRAIN_MS is unset (the document leaves it to the agent). */
  drainMs: number;
  listener: {
    /** The port the listener binds for the one configured: the same (AG-4). */
    port: (configured: number) => number;
    /** Opens the listener on that port: it serves until the end of the drain. */
    open: (agent: Agent, port: number) => void;
  };
  /** AG-1..3, AG-5: each endpoint's answer, by the moment of the agent's life. */
  endpoints: Record<Endpoint, EndpointAnswer>;
  /** Any other path or method: the document shows none. */
  otherPath: (m: Moment) => Answer;
  life: {
    /** AG-5: SIGTERM starts the drain: readiness falls at once, the listener serves to its end, then closes. */
    sigterm: (agent: Agent) => void;
    /** The process's end, once the listener closed after the drain: at once. */
    exit: (agent: Agent) => void;
  };
}

export function makeAgentSeams(): AgentSeams {
  const seams: AgentSeams = {
    healthPort: { unset: DOCUMENTED_HEALTH_PORT, given: (_text, port) => port },
    drainMs: 300,
    listener: {
      port: (configured) => configured,
      open: (agent, port) => agent.server.listen(port, agent.host),
    },
    endpoints: {
      // AG-1, AG-5: ready while running, 503 from SIGTERM on, so that a load balancer stops sending work.
      readiness: (m) => (m.phase === 'draining' ? DRAINING : OK),
      // AG-2, AG-3: 200 through the whole life, the drain included, until the exit.
      liveness: () => OK,
      health: () => OK,
    },
    otherPath: () => NOT_FOUND,
    life: {
      sigterm: (agent) => {
        agent.state.drainingSince = Date.now();
        agent.say(`reference agent draining for ${agent.state.drainMs} ms`);
        setTimeout(() => {
          // Read when the listener has closed: a plugin may have changed the exit since.
          agent.server.close(() => seams.life.exit(agent));
          agent.server.closeAllConnections();
        }, agent.state.drainMs);
      },
      exit: (agent) => agent.exit(0),
    },
  };
  return seams;
}

/** A plugin from outside (AGENT_PLUGINS names its module): it may change the seams before the agent starts. */
export type AgentPlugin = (seams: AgentSeams) => void | Promise<void>;
