// GET /v1/runtimes and GET /v1/runtimes/:id, read through the part's seams (runtimes/seams.ts) at call time.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../errors/catalogue';
import { RUNTIME_LIST, RUNTIME_ROUTE, type RuntimeSeams } from '../runtimes/seams';

export default async function runtimesPlugin(app: FastifyInstance, opts: { seams: RuntimeSeams }) {
  const { seams } = opts;
  /** A route's options: its own limit in its config, when it has one. */
  const limited = (url: string) => {
    const rateLimit = seams.ownLimit(url);
    return rateLimit ? { config: { rateLimit } } : {};
  };

  app.get(RUNTIME_LIST, limited(RUNTIME_LIST), async (_req, reply) =>
    reply.type(seams.mediaType).send(JSON.stringify(seams.catalogue.map((r) => seams.present(r)))),
  );

  app.get<{ Params: { id: string } }>(RUNTIME_ROUTE, limited(RUNTIME_ROUTE), async (req, reply) => {
    const rt = seams.find(req.params.id);
    if (!rt) throw apiError('RUNTIME_NOT_FOUND');
    return reply.type(seams.mediaType).send(JSON.stringify(seams.present(rt)));
  });
}
