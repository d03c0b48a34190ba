// GET /openapi.json and GET /swagger.json: public (no auth, no rate limit, so the suite can always read them).
import type { FastifyInstance } from 'fastify';
import { buildOpenApi, OPENAPI_LAST_MODIFIED, SWAGGER_LAST_MODIFIED } from '../spec/openapi-document';
import { buildSwagger } from '../spec/swagger-document';

export default async function openapiPlugin(app: FastifyInstance, opts: { accountHeader: string }) {
  const openapi = JSON.stringify(buildOpenApi(opts.accountHeader));
  const swagger = JSON.stringify(buildSwagger(opts.accountHeader));
  const noLimit = { config: { rateLimit: false as const } };

  app.get('/openapi.json', noLimit, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').header('last-modified', OPENAPI_LAST_MODIFIED.toUTCString()).send(openapi),
  );
  app.get('/swagger.json', noLimit, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').header('last-modified', SWAGGER_LAST_MODIFIED.toUTCString()).send(swagger),
  );
}
