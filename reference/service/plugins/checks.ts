// GET /v1/checks/:id and the deprecated PUT /v1/checks/:id. The update is all or nothing: the whole
// body is validated (schema, then the cross-field frequencyOffset rules) before anything is stored.
import type { FastifyInstance } from 'fastify';
import type { Faults } from '../../faults';
import { GUID } from '../accounts';
import { apiError, ApiError } from '../errors/catalogue';
import { checkUpdateSchema } from '../checks/schema';
import { offsetProblem } from '../checks/frequency-offset';
import { DESCRIPTION_MAX } from '../checks/vocabulary';
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
    // ind-cu-checktype-case: enum input "normalised" before it is validated.
    preValidation: async (req) => {
      const b = req.body as Record<string, unknown> | null;
      if (faults.has('ind-cu-checktype-case') && b && typeof b === 'object' && typeof b.checkType === 'string') {
        b.checkType = b.checkType.toUpperCase();
      }
    },
  }, async (req) => {
    const current = load(req.accountId, req.params.id);
    const body = req.body;
    const problems: string[] = [];
    const v = req.validationError;
    if (v) problems.push(v.message);
    if (!problems.length) {
      // ind-fo-null-offset: null read as "leave the offset as it is".
      if (faults.has('ind-fo-null-offset') && body.frequencyOffset === null) delete body.frequencyOffset;
      // ind-cu-description-bytes: measured as the database column counts it, in UTF-8 bytes.
      if (faults.has('ind-cu-description-bytes') && typeof body.description === 'string'
        && Buffer.byteLength(body.description) > DESCRIPTION_MAX) problems.push(`description: at most ${DESCRIPTION_MAX} characters`);
      const offset = faults.has('fo-string-offset') && typeof body.frequencyOffset === 'string'
        ? Number(body.frequencyOffset) : (body.frequencyOffset as number | undefined);
      if (offset !== undefined) body.frequencyOffset = offset;
      // ind-fo-stale-offset: the pair is checked only when an offset is sent (or the frequency is 0).
      const unchecked = faults.has('ind-fo-stale-offset') && offset === undefined && typeof body.frequency === 'number' && body.frequency > 0;
      // ind-fo-type-change-at-zero: a new checkType is looked at only together with a new frequency.
      const newType = faults.has('ind-fo-type-change-at-zero') && body.frequency === undefined ? undefined : body.checkType;
      const p = unchecked ? null : offsetProblem(
        (body.frequency as number | undefined) ?? current.frequency,
        offset ?? current.frequencyOffset,
        (newType as string | undefined) ?? current.checkType,
        faults,
      );
      if (p) problems.push(p);
    }
    if (problems.length) {
      // ind-cu-flags-applied-early: activated/muted are sent to the scheduler before the body is judged.
      if (faults.has('ind-cu-flags-applied-early') && body && typeof body === 'object') {
        const flags = Object.fromEntries(['activated', 'muted'].filter((k) => typeof body[k] === 'boolean').map((k) => [k, body[k]]));
        store.put(req.accountId ?? '', { ...current, ...flags });
      }
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
