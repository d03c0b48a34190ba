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

/**
 * The value classes of the agent's checks: the phase of its life a request was sent in. Starting: before
 * readiness first answered 200; running: from then until SIGTERM; draining: from SIGTERM to the exit.
 */
export const PHASE = { starting: 'starting', running: 'running', draining: 'draining' } as const;

/**
 * What readiness may answer while the agent starts (before it first answered 200). The document gives
 * readiness two answers, 200 when ready and 503 during shutdown, and is silent on the start-up: either of
 * the two will do there (a 503 says "not ready" as it does in shutdown); any other status is none the
 * document gives readiness.
 */
export const READINESS_WHILE_STARTING: readonly number[] = [200, 503];

/**
 * A probe's errors that say the agent stopped answering (its port refused or dropped the connection). A
 * timeout says nothing: on a loaded machine the prober or the agent may just have been slow.
 */
export const STOPPED_ANSWERING: readonly string[] = ['ECONNREFUSED', 'ECONNRESET', 'closed without an answer'];

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

/** The timing of the watch of an agent's whole life, from its start to its exit (life-watch.ts, life-judge.ts). */
export const LIFE_TIMING = {
  /** The running agent is watched this long after readiness first answered 200, before SIGTERM… */
  steadyMs: 400,
  /** …and until each endpoint answered this many requests sent in that time (a loaded watcher sends fewer)… */
  steadyAnswers: 5,
  /** …but no longer than this. */
  steadyLimitMs: 5_000,
  /**
   * A refused connection counts against an agent only when its process certainly lived on: its exit event
   * came this much later (the watcher's own stalls in between not counted). It covers the legitimate gap
   * between a server's close and its process's exit, and a wrapper's (a shell, a container's CLI) exit after it.
   */
  exitMarginMs: { embedded: 1_000, command: 5_000 },
  /** After the port stopped answering in the shutdown, the exit is awaited this much longer than the margin. */
  exitWaitExtraMs: 500,
};
