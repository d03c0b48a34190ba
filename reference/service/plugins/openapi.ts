// GET /openapi.json and GET /swagger.json: public (no auth, no rate limit, so the suite can always read them).
import type { FastifyInstance } from 'fastify';
import type { Faults } from '../../faults';
import { apiError } from '../errors/catalogue';
import { buildOpenApi, OPENAPI_LAST_MODIFIED, SWAGGER_LAST_MODIFIED } from '../spec/openapi-document';
import { buildSwagger } from '../spec/swagger-document';

const DAY_MS = 86_400_000;

export default async function openapiPlugin(app: FastifyInstance, opts: { faults: Faults; accountHeader: string }) {
  const { faults, accountHeader } = opts;
  const openapi = JSON.stringify(buildOpenApi(faults, accountHeader));
  const swagger = JSON.stringify(buildSwagger(faults, accountHeader));
  const swaggerModified = faults.has('swagger-newer') ? new Date(OPENAPI_LAST_MODIFIED.getTime() + DAY_MS) : SWAGGER_LAST_MODIFIED;
  const noLimit = { config: { rateLimit: false as const } };

  app.get('/openapi.json', noLimit, async (_req, reply) => {
    if (faults.has('spec-missing')) throw apiError('ROUTE_NOT_FOUND');
    // ind9-spec-utf8-bom: the file as an editor saved it, a byte order mark in front of the JSON.
    const body = faults.has('ind9-spec-utf8-bom') || faults.has('spec-bom') ? `\uFEFF${openapi}` : openapi;
    return reply.type('application/json; charset=utf-8').header('last-modified', OPENAPI_LAST_MODIFIED.toUTCString()).send(body);
  });
  app.get('/swagger.json', noLimit, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').header('last-modified', swaggerModified.toUTCString()).send(swagger),
  );
}
