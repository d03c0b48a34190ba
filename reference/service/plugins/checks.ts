// GET /v1/checks/:id and the deprecated PUT /v1/checks/:id. The update is all or nothing: the whole
// body is validated (schema, then the cross-field frequencyOffset rules) before anything is stored.
import type { FastifyInstance } from 'fastify';
import type { Faults } from '../../faults';
import { GUID } from '../accounts';
import { apiError, ApiError } from '../errors/catalogue';
import { checkUpdateSchema } from '../checks/schema';
import { offsetProblem } from '../checks/frequency-offset';
import { CheckStore, madeUpCheck, type Check } from '../checks/store';

interface UpdateRoute {
  Params: { id: string };
  Querystring: { autoAssignAlerts?: string };
  Body: Record<string, unknown>;
}

export default async function checksPlugin(app: FastifyInstance, opts: { faults: Faults; store?: CheckStore }) {
  const { faults } = opts;
  const store = opts.store ?? new CheckStore();

  const load = (account: string | null, id: string): Check => {
    const found = account ? store.get(account, id) : undefined;
    if (found) return found;
    if (faults.has('cu-unknown-id-200') && GUID.test(id)) return madeUpCheck(id);
    throw apiError('CHECK_NOT_FOUND');
  };

  /** A rejected update is 400; cu-500 is the bug that lets validation blow up as 500. */
  const reject = (code: 'INVALID_BODY' | 'INVALID_QUERY', detail: string): ApiError =>
    faults.has('cu-500') ? new ApiError('INTERNAL', 500, 'Internal server error') : apiError(code, detail);

  app.get<{ Params: { id: string } }>('/v1/checks/:id', async (req) => load(req.accountId, req.params.id));

  app.put<UpdateRoute>('/v1/checks/:id', {
    // Strings for the query: coercion is off, and only the two literal spellings are booleans.
    schema: {
      querystring: { type: 'object', properties: { autoAssignAlerts: { type: 'string', enum: ['true', 'false'] } } },
      body: checkUpdateSchema(faults),
    },
    // The handler decides what a validation failure means (404 first, cu-partial-apply, cu-500).
    attachValidation: true,
  }, async (req) => {
    const current = load(req.accountId, req.params.id);
    const body = req.body;
    const problems: string[] = [];
    const v = req.validationError;
    if (v) problems.push(v.message);
    if (!problems.length) {
      const offset = faults.has('fo-string-offset') && typeof body.frequencyOffset === 'string'
        ? Number(body.frequencyOffset) : (body.frequencyOffset as number | undefined);
      if (offset !== undefined) body.frequencyOffset = offset;
      const p = offsetProblem(
        (body.frequency as number | undefined) ?? current.frequency,
        offset ?? current.frequencyOffset,
        (body.checkType as string | undefined) ?? current.checkType,
        faults,
      );
      if (p) problems.push(p);
    }
    if (problems.length) {
      if (faults.has('cu-partial-apply') && body && typeof body === 'object' && typeof body.name === 'string') {
        store.put(req.accountId ?? '', { ...current, name: body.name });
      }
      const querystringOnly = v?.validationContext === 'querystring';
      throw reject(querystringOnly ? 'INVALID_QUERY' : 'INVALID_BODY', problems.join('; '));
    }
    const known = Object.keys(checkUpdateSchema(faults).properties as object);
    const updated: Check = { ...current, updated_at: new Date().toISOString() };
    for (const k of known) if (k in body && !(faults.has('cu-null-ignored') && body[k] === null)) updated[k] = body[k];
    if (!faults.has('cu-not-persisted')) store.put(req.accountId ?? '', updated);
    return updated;
  });
}
