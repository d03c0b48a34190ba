// GET /v1/checks/:id and the deprecated PUT /v1/checks/:id. The update is all or nothing: the whole
// body is validated (schema, then the cross-field frequencyOffset rules) before anything is stored.
// Each step is one of the part's seams (checks/seams.ts), read as the request is answered.
import type { CheckSeams, Update } from '../checks/seams';
import type { FastifyInstance } from 'fastify';
import { apiError } from '../errors/catalogue';

interface UpdateRoute {
  Params: { id: string };
  Querystring: { autoAssignAlerts?: string };
  Body: Record<string, unknown>;
}

export default async function checksPlugin(app: FastifyInstance, opts: { seams: CheckSeams }) {
  const checks = opts.seams;

  app.get<{ Params: { id: string } }>('/v1/checks/:id', async (req) => {
    const account = checks.holder(req.accountId, req.params.id, 'check-read');
    return checks.read(account, req.params.id, 'check-read');
  });

  app.put<UpdateRoute>(
    '/v1/checks/:id',
    {
      // Strings for the query: coercion is off, and only the two literal spellings are booleans.
      schema: {
        querystring: { type: 'object', properties: { autoAssignAlerts: { type: 'string', enum: ['true', 'false'] } } },
        body: checks.bodySchema(),
      },
      // The handler decides what a validation failure means: an unknown check is 404 first.
      attachValidation: true,
    },
    async (req) => {
      const account = checks.holder(req.accountId, req.params.id, 'check-update');
      const check = checks.read(account, req.params.id, 'check-update');
      const v = req.validationError;
      const update: Update = {
        account: account ?? '',
        check,
        body: req.body,
        invalid: v && { in: v.validationContext === 'querystring' ? 'querystring' : 'body', message: v.message, errors: v.validation ?? [] },
      };
      const problems = checks.problems(update);
      if (problems.length) {
        await checks.discard(update);
        throw apiError(update.invalid?.in === 'querystring' ? 'INVALID_QUERY' : 'INVALID_BODY', problems.join('; '));
      }
      const updated = checks.merge(update);
      await checks.save(update, updated);
      return updated;
    },
  );
}
