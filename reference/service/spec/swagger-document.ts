// The old Swagger 2.0 document: smaller than openapi.json, deprecated, never declaring an operation
// that openapi.json lacks (unless swagger-newer adds one).
import type { Faults } from '../../faults';

export function buildSwagger(faults: Faults, accountHeader: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {
    '/v1/runtimes/{id}': {
      get: {
        summary: 'Shows details for one specific runtime',
        operationId: 'getV1RuntimesId',
        produces: ['application/json'],
        parameters: [
          { name: 'id', in: 'path', required: true, type: 'string' },
          { name: accountHeader, in: 'header', required: false, type: 'string' },
        ],
        responses: { 200: { description: 'Successful' }, 404: { description: 'Not Found' } },
      },
    },
  };
  if (faults.has('swagger-newer')) {
    paths['/v1/checks'] = {
      post: { summary: 'Create a check', operationId: 'postV1Checks', responses: { 201: { description: 'Created' } } },
    };
  }
  // Keep the two documents in step under spec-unversioned, so that fault breaks SPEC-2 only.
  const served = faults.has('spec-unversioned') ? Object.fromEntries(Object.entries(paths).map(([p, item]) => [p.replace(/^\/v1/, ''), item])) : paths;
  return {
    swagger: '2.0',
    info: {
      title: 'Monitoring Service Public API',
      version: 'v1',
      description: 'DEPRECATED: this Swagger 2.0 document is no longer updated. The current specification is /openapi.json.',
    },
    basePath: '/',
    securityDefinitions: { Bearer: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    security: [{ Bearer: [] }],
    paths: served,
  };
}
