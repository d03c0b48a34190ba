// The agent's three health endpoints as a plain request handler over a small state: running, or
// draining since some moment for a known time. What each endpoint answers is a seam (seams.ts), asked
// with the moment of the agent's life the request arrives at.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentSeams, AgentState, Answer, Endpoint, Moment } from './seams';

export type { AgentState } from './seams';

const ENDPOINT_OF_PATH: Readonly<Record<string, Endpoint>> = { '/-/readiness': 'readiness', '/-/liveness': 'liveness', '/health': 'health' };

/** AG-4: the port of the endpoints for AGENT_HEALTH_PORT's value; a value that names no port is refused (RangeError). */
export function healthPortOf(raw: string | undefined, seams: Pick<AgentSeams, 'healthPort'>): number {
  if (raw === undefined || raw === '') return seams.healthPort.unset;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n > 65535) throw new RangeError(`AGENT_HEALTH_PORT: expected an integer from 0 to 65535, got "${raw}"`);
  return seams.healthPort.given(raw, n);
}

function send(res: ServerResponse, { status, body }: Answer): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  res.end(JSON.stringify(body));
}

export function healthHandler(state: AgentState, seams: AgentSeams, clock: () => number = Date.now) {
  const momentNow = (): Moment => {
    const now = clock();
    return {
      now,
      phase: state.drainingSince === null ? 'running' : 'draining',
      sinceOpenMs: state.startedAt === undefined ? undefined : now - state.startedAt,
      sinceSigtermMs: state.drainingSince === null ? undefined : now - state.drainingSince,
      drainMs: state.drainMs,
      port: state.port,
    };
  };
  return (req: IncomingMessage, res: ServerResponse): void => {
    const m = momentNow();
    const endpoint = ENDPOINT_OF_PATH[(req.url ?? '/').split('?')[0]];
    const answer = endpoint && (req.method === 'GET' || req.method === 'HEAD') ? seams.endpoints[endpoint](m, req) : null;
    send(res, answer ?? seams.otherPath(m));
  };
}
