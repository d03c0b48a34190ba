/**
 * An agent's life as the tests need it: started through AGENT_COMMAND on a port, up (AG-4) and ready,
 * probed on its three endpoints (AG-1..3, stamped with their places), and always killed at the end.
 */
import { AGENT_DEFAULT_PORT } from '../document/facts';
import { EMBEDDED_AGENT_COMMAND } from '../run/config';
import type { Verdict } from '../checks/verdict';
import { probe, startAgent, waitUntilUp, type AgentProcess } from './process';
import { AGENT_ENDPOINTS, PHASE } from './table';

/** Long enough for an AGENT_COMMAND that starts a container from a local image. */
export const STARTUP_LIMIT_MS = 30_000;
/** Once it answers at all, an agent has this long to report ready. */
const READY_LIMIT_MS = 15_000;
/**
 * The embedded agent listens within a second and is ready as soon as it listens (it has no checks to
 * load): more than these is a port or a readiness that will not come, and a run against it need not
 * wait the limits a real agent gets.
 */
const EMBEDDED_STARTUP_LIMIT_MS = 5_000;
const EMBEDDED_READY_LIMIT_MS = 2_000;

async function waitUntilReady(baseUrl: string, limitMs: number): Promise<void> {
  for (const deadline = Date.now() + limitMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    const p = await probe(`${baseUrl}/-/readiness`, 1000);
    if ('status' in p && p.status === 200) return;
  }
}

/** AG-1..3 on a running agent; with `portClause`, AG-4 too (something answers on the port it was given). */
export async function probeAll(verdict: Verdict, baseUrl: string, portClause = false): Promise<void> {
  for (const e of AGENT_ENDPOINTS) {
    const v = verdict.at({ place: e.place, valueClass: PHASE.running });
    const p = await probe(`${baseUrl}${e.path}`);
    const got = 'status' in p ? p.status : p.error;
    v.check(e.clause, got === 200, `GET ${e.path} on ${baseUrl} did not answer 200`, got, '200');
    if (portClause)
      v.check('AG-4', 'status' in p, `nothing answers ${e.path} on the port given in AGENT_HEALTH_PORT (${baseUrl})`, got, 'the endpoints on that port');
  }
}

export async function withAgent(verdict: Verdict, command: string, port: number | undefined, body: (agent: AgentProcess) => Promise<void>): Promise<void> {
  const agent = startAgent(command, port);
  const embedded = command === EMBEDDED_AGENT_COMMAND;
  const upLimitMs = embedded ? EMBEDDED_STARTUP_LIMIT_MS : STARTUP_LIMIT_MS;
  try {
    const up = await waitUntilUp(agent, upLimitMs);
    const given = port === undefined ? `the default port ${AGENT_DEFAULT_PORT}` : `AGENT_HEALTH_PORT=${port}`;
    // Up means liveness answered (waitUntilUp): the check is stamped with that endpoint's place.
    const v = verdict.at({ place: AGENT_ENDPOINTS.find((e) => e.path === '/-/liveness')!.place, valueClass: PHASE.running });
    if (
      !v.check(
        'AG-4',
        up,
        `the agent started by AGENT_COMMAND did not answer on ${given} within ${upLimitMs / 1000} s`,
        agent.output().split('\n').slice(-3).join(' | ') || 'no output',
        `the health endpoints on ${agent.baseUrl}`,
      )
    )
      return;
    // Readiness may answer 503 while the agent starts: it must turn 200 once the agent is ready.
    await waitUntilReady(agent.baseUrl, embedded ? EMBEDDED_READY_LIMIT_MS : READY_LIMIT_MS);
    await body(agent);
  } finally {
    agent.signal('SIGKILL');
  }
}
