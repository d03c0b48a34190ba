// The agent's three health endpoints as a plain request handler over a small state: ready or draining.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Faults } from '../faults';

/** stopping: the workers are gone (the last moments of the drain); only ind-agent-liveness-fails-before-exit reads it. */
export interface AgentState { draining: boolean; stopping?: boolean }

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  res.end(JSON.stringify(body));
}

export function healthHandler(state: AgentState, faults: Faults) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 404, { status: 'not found' });
    switch (path) {
      case '/-/readiness': {
        // While draining, a load balancer must stop sending work: 503. The faults get this wrong.
        const ready = !faults.has('agent-ready-503') && (!state.draining || faults.has('agent-ready-during-shutdown'));
        return ready ? json(res, 200, { status: 'ok' }) : json(res, 503, { status: 'draining' });
      }
      case '/-/liveness':
        if (faults.has('agent-liveness-500')) return json(res, 500, { status: 'error' });
        if (state.draining && faults.has('agent-liveness-dies-on-shutdown')) return json(res, 503, { status: 'draining' });
        // ind-agent-liveness-fails-before-exit: liveness reports the workers, which stop before the server does.
        if (state.stopping && faults.has('ind-agent-liveness-fails-before-exit')) return json(res, 503, { status: 'stopping' });
        return json(res, 200, { status: 'ok' });
      case '/health':
        if (faults.has('agent-no-health')) break;
        return json(res, 200, { status: 'ok' });
    }
    return json(res, 404, { status: 'not found' });
  };
}
