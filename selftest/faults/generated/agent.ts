/**
 * AG faults generated from the agent table: each endpoint that must stay 200 while the agent drains
 * dies during the whole drain or only in its last moments, readiness stays 200 for a while after
 * SIGTERM (beyond the signal grace: a delay within it is the signal on its way and not caught, by
 * design), and the agent exits at once without ever saying 503.
 */
import { AGENT_ENDPOINTS, PHASE, SHUTDOWN_TIMING } from '../../../support/agent/table';
import type { GeneratedFault } from '../types';
import { TEST_FILES } from '../../../support/run/test-files';

const FILES = [TEST_FILES.agent];

/** The reference's name of each endpoint (MOCK_FAULT's <endpoint>). */
const FAULT_ENDPOINT: Readonly<Record<string, string>> = { '/-/readiness': 'readiness', '/-/liveness': 'liveness', '/health': 'health' };

/** What a broken endpoint answers while the agent runs: not ready, broken, not there. */
const DOWN_STATUSES = [503, 500, 404];

const readiness = AGENT_ENDPOINTS.find((e) => e.draining.status === 503)!;
const late = [SHUTDOWN_TIMING.signalGraceMs * 3, 1000];

export const AGENT_GENERATED: GeneratedFault[] = [
  // While the agent runs, each endpoint answers 200 (AG-1..3).
  ...AGENT_ENDPOINTS.flatMap((e) =>
    DOWN_STATUSES.map((status): GeneratedFault => ({
      fault: `agent-down:${FAULT_ENDPOINT[e.path]}:${status}`,
      clause: e.clause,
      place: e.place,
      valueClass: PHASE.running,
      direction: 'strict',
      files: FILES,
    })),
  ),
  { fault: 'agent-exit-at-once', clause: readiness.draining.clause, place: readiness.place, valueClass: PHASE.draining, direction: 'loose', files: FILES },
  ...late.map((ms): GeneratedFault => ({
    fault: `agent-ready-late:${ms}`,
    clause: readiness.draining.clause,
    place: readiness.place,
    valueClass: PHASE.draining,
    direction: 'loose',
    files: FILES,
  })),
  ...AGENT_ENDPOINTS.filter((e) => e.draining.status === 200).flatMap((e): GeneratedFault[] => [
    {
      fault: `agent-health-dies:${FAULT_ENDPOINT[e.path]}`,
      clause: e.draining.clause,
      ...(e.draining.also ? { also: [e.draining.also] } : {}),
      place: e.place,
      valueClass: PHASE.draining,
      direction: 'strict',
      files: FILES,
    },
    ...[100, 200].map((ms): GeneratedFault => ({
      fault: `agent-dies-late:${FAULT_ENDPOINT[e.path]}:${ms}`,
      clause: e.draining.clause,
      ...(e.draining.also ? { also: [e.draining.also] } : {}),
      place: e.place,
      valueClass: PHASE.draining,
      direction: 'strict',
      files: FILES,
    })),
  ]),
];
