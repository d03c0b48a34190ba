// The old Swagger 2.0 document: smaller than openapi.json, deprecated, never declaring an operation
// that openapi.json lacks.

export function buildSwagger(accountHeader: string): Record<string, unknown> {
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
    paths,
  };
}
