/** AG as data: the three health endpoints (places, clauses) and the shutdown watch's timing. */
import type { ClauseId } from '../document/clauses';
import { PLACE } from '../document/places';

export interface AgentEndpoint {
  path: string;
  place: string;
  /** The clause of a 200 while the agent runs. */
  clause: ClauseId;
  /** What the endpoint must answer between SIGTERM and the exit, and under which clause. */
  draining: { status: 200 | 503; clause: ClauseId; also?: ClauseId };
}

export const AGENT_ENDPOINTS: readonly AgentEndpoint[] = [
  { path: '/-/readiness', place: PLACE.agentReadiness, clause: 'AG-1', draining: { status: 503, clause: 'AG-5' } },
  // AG-2 too: liveness stays 200 until the process exits (the document's note under AG-5).
  { path: '/-/liveness', place: PLACE.agentLiveness, clause: 'AG-2', draining: { status: 200, clause: 'AG-5', also: 'AG-2' } },
  { path: '/health', place: PLACE.agentHealth, clause: 'AG-3', draining: { status: 200, clause: 'AG-3' } },
];

/** The value classes of the agent's checks: the phase of its life a request was sent in. */
export const PHASE = { running: 'running', draining: 'draining' } as const;

/** The shutdown watch's timing, the one every watch and judgement uses. */
export const SHUTDOWN_TIMING = {
  /** Pause between two probes of one endpoint (each endpoint has its own loop). */
  intervalMs: 25,
  probeTimeoutMs: 1000,
  /** A readiness 200 to a request sent this soon after SIGTERM is not held against the agent: the signal may still be on its way. */
  signalGraceMs: 100,
  /** This many failed probes in a row (refused, reset, timed out): the agent is gone. One, once the process has exited. */
  goneAfterMisses: 3,
  /** Watch no longer than this; a drain still going on then is noted (the document does not bound it). */
  watchLimitMs: 30_000,
  /** A pause of the watcher longer than this is a stall, a hole in the evidence (shutdown-judge.ts). */
  stallLimitMs: 150,
  watchAttempts: 3,
};
