/**
 * Check update faults applied from outside the service. What they bend is the chain of requests, not one
 * answer: a refused write that takes effect later, which only a model of the check across reads can see.
 */
import type { FastifyRequest } from 'fastify';
import type { NamedFault } from './seams';

const CHECK_ROUTE = '/v1/checks/:id';
const idOf = (req: FastifyRequest) => (req.params as { id?: string }).id ?? '';

export const CHECK_UPDATE_FAULTS: NamedFault[] = [
  {
    // A write-behind queue: a refused body's name is kept, and written once the next read of the check has been answered.
    name: 'cu-refused-saved-after-read',
    what: "a refused body's name is written once the check's next read has been answered (a write-behind queue)",
    clauses: ['CU-7'],
    reach: ['check-update#valid', 'check-read#valid'],
    apply: (app) => {
      const pending = new Map<string, string>();
      app.addHook('onResponse', async (req, reply) => {
        if (req.routeOptions.url !== CHECK_ROUTE) return;
        const body = req.body as { name?: unknown } | undefined;
        if (req.method === 'PUT' && reply.statusCode >= 400 && typeof body?.name === 'string') pending.set(idOf(req), body.name);
        const name = pending.get(idOf(req));
        if (req.method !== 'GET' || reply.statusCode !== 200 || name === undefined) return;
        pending.delete(idOf(req));
        const { authorization, ...rest } = req.headers;
        const account = Object.entries(rest).filter(([k]) => k.endsWith('-account'));
        await app.inject({ method: 'PUT', url: req.url, headers: { authorization, ...Object.fromEntries(account) }, payload: { name } });
      });
    },
  },
];
