// Which role a request's route plays, in the words the parameterized faults use for places.
import type { FastifyRequest } from 'fastify';
import type { Place } from '../fault-kinds';

/** null: a route without a role of its own (the runtime list, swagger.json, an unknown path). */
export function placeOf(req: FastifyRequest): Exclude<Place, 'any'> | null {
  const url = req.routeOptions.url;
  const read = req.method === 'GET' || req.method === 'HEAD';
  if (url === '/v1/runtimes/:id' && read) return 'runtime';
  if (url === '/v1/checks/:id') return read ? 'check-read' : req.method === 'PUT' ? 'check-update' : null;
  if (url === '/openapi.json' && read) return 'spec';
  return null;
}
