/**
 * AG as data: the agent's three health endpoints (their place names and clauses) and the timing of the
 * shutdown watch. While the agent runs, each endpoint answers 200 (AG-1..3). After SIGTERM readiness
 * answers 503 (AG-5) while liveness (AG-5) and /health (AG-3, which holds during shutdown too) stay 200
 * until the process exits.
 */
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

export interface ShutdownTiming {
  /** Pause between two probes of one endpoint (each endpoint has its own loop). */
  intervalMs: number;
  probeTimeoutMs: number;
  /**
   * A readiness 200 to a request sent this soon after SIGTERM is not held against the agent: the signal
   * reaches it through the kernel, and through a forwarder (a shell, `docker run`) when AGENT_COMMAND
   * has one, while a request may already be on its way. Later, readiness must say 503.
   */
  signalGraceMs: number;
  /** This many failed probes in a row (refused, reset, timed out): the agent is gone. One, once the process has exited. */
  goneAfterMisses: number;
  /** Watch no longer than this; a drain still going on then is noted (the document does not bound it). */
  watchLimitMs: number;
  /**
   * A pause of the watcher longer than this (its process busy elsewhere) is a stall: a hole in the
   * evidence that the judge weighs (shutdown-judge.ts). Where it leaves AG-5 open, the shutdown is
   * watched again, up to `watchAttempts` watches in all.
   */
  stallLimitMs: number;
  watchAttempts: number;
}

export const SHUTDOWN_TIMING: ShutdownTiming = {
  intervalMs: 25,
  probeTimeoutMs: 1000,
  signalGraceMs: 100,
  goneAfterMisses: 3,
  watchLimitMs: 30_000,
  stallLimitMs: 150,
  watchAttempts: 3,
};
