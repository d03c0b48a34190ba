// Which role a request's route plays: the operations of the document, named as the rest of the project names them.
import type { FastifyRequest } from 'fastify';

/** The role of a route: GET /v1/runtimes/:id, GET and PUT /v1/checks/:id, GET /openapi.json. */
export type Place = 'runtime' | 'check-read' | 'check-update' | 'spec';

/** null: a route without a role of its own (the runtime list, swagger.json, an unknown path). */
export function placeOf(req: FastifyRequest): Place | null {
  const url = req.routeOptions.url;
  const read = req.method === 'GET' || req.method === 'HEAD';
  if (url === '/v1/runtimes/:id' && read) return 'runtime';
  if (url === '/v1/checks/:id') return read ? 'check-read' : req.method === 'PUT' ? 'check-update' : null;
  if (url === '/openapi.json' && read) return 'spec';
  return null;
}
