// GET /v1/checks/:id and the deprecated PUT /v1/checks/:id. The update is all or nothing: the whole
// body is validated (schema, then the cross-field frequencyOffset rules) before anything is stored.
import type { CheckSeams } from '../checks/seams';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Faults } from '../../faults';
import { GUID } from '../accounts';
import { placeOf } from '../place';
import type { Place } from '../../fault-kinds';
import { apiError, ApiError } from '../errors/catalogue';
import { checkUpdateSchema } from '../checks/schema';
import { DESCRIPTION_MAX, RUNTIME_VERSIONS, UPDATE_PROPERTIES } from '../checks/vocabulary';
import { offsetProblem } from '../checks/frequency-offset';
import { CheckStore, madeUpCheck, SEEDED_TYPES, type Check } from '../checks/store';
import { RUNTIMES } from '../runtimes/data';
import { sendError } from './errors';
import { errorBody } from '../errors/catalogue';

/** ind6-cu-removed-runtime-refused: the runtimes read as no longer selectable. */
const REMOVED_RUNTIMES: readonly string[] = RUNTIMES.filter((r) => r.stage === 'REMOVED').map((r) => r.name);

/** ind7-cu-runtime-range-check, cu-runtime-pinned-newest: the oldest and the newest runtime, as YYYY.MM strings compare. */
const [OLDEST_RUNTIME, NEWEST_RUNTIME] = [[...RUNTIME_VERSIONS].sort()[0], [...RUNTIME_VERSIONS].sort().pop()!];
/** ind7-cu-stale-read-cache: how long a read of a check is served from the cache. */
const READ_CACHE_MS = 30_000;
/** ind9-cu-utf8mb3-astral: a character a 3-byte utf8 column cannot hold (outside the Basic Multilingual Plane). */
const ASTRAL = /[\u{10000}-\u{10FFFF}]/gu;
/** ind9-cu-utf8mb3-astral, cu-astral-dropped: what the column keeps of a value: each astral character becomes `instead`. */
const throughUtf8mb3 = (value: unknown, instead = '?'): unknown =>
  typeof value === 'string'
    ? value.replace(ASTRAL, instead)
    : Array.isArray(value)
      ? value.map((v) => throughUtf8mb3(v, instead))
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, throughUtf8mb3(v, instead)]))
        : value;

/** ind8-cu-concurrent-lost-update: how long the update waits for the catalogue between its read and its write. */
const CATALOGUE_ROUND_TRIP_MS = 20;

interface UpdateRoute {
  Params: { id: string };
  Querystring: { autoAssignAlerts?: string };
  Body: Record<string, unknown>;
}

export default async function checksPlugin(app: FastifyInstance, opts: { faults: Faults; seams: CheckSeams; store?: CheckStore }) {
  const { faults } = opts;
  const store = opts.store ?? new CheckStore();
  /** ind7-cu-stale-read-cache: reads by account and id; nothing ever invalidates them. */
  const readCache = new Map<string, { at: number; check: Check }>();
  /** ind7-cu-rollback-to-seed: the unit of work's snapshot of each check, taken when it is first loaded. */
  const firstLoaded = new Map<string, Check>();
  /** ind9-fo-refused-frequency-remembered: the frequency of the last body received for each check, refused or not. */
  const lastFrequency = new Map<string, number>();
  /** fo-refused-draft-frequency: the frequency of a refused body, left in the check's draft until an update is accepted. */
  const draftFrequency = new Map<string, number>();
  /** cu-refused-draft-kept: the name and tags of refused bodies, left in the check's draft and saved with its next accepted update. */
  const draft = new Map<string, Record<string, unknown>>();

  /**
   * The account whose check a request names. unknown-check:<place>:foreign (ind7-cu-cross-account-id):
   * another account's check looked up by id alone (found), or the lookup blowing up (fail).
   */
  const accountFor = (req: FastifyRequest<{ Params: { id: string } }>): string | null => {
    const owner = req.accountId ? store.ownerOf(req.params.id) : undefined;
    if (!owner || owner === req.accountId) return req.accountId;
    const answer = faults.unknownCheckAnswer(placeOf(req), 'foreign');
    if (answer === 'fail') throw new Error('check lookup failed');
    return answer === 'found' ? owner : req.accountId;
  };

  const load = (account: string | null, id: string, place: Place | null): Check => {
    const found = account ? store.get(account, id) : undefined;
    if (found && faults.has('ind7-cu-rollback-to-seed') && !firstLoaded.has(`${account} ${id}`)) firstLoaded.set(`${account} ${id}`, structuredClone(found));
    if (found) return found;
    if (faults.has('cu-unknown-id-200') && GUID.test(id)) return madeUpCheck(id);
    // unknown-check: ids of one shape made up (200) or blowing up (500) on one route.
    const answer = faults.unknownCheckAnswer(place, GUID.test(id) ? 'guid' : 'other');
    if (answer === 'found') return madeUpCheck(id);
    if (answer === 'fail') throw new Error('check lookup failed');
    throw apiError('CHECK_NOT_FOUND');
  };

  /** A rejected update is 400; cu-500 is the bug that lets validation blow up as 500. */
  const reject = (code: 'INVALID_BODY' | 'INVALID_QUERY', detail: string): ApiError =>
    faults.has('cu-500') ? new ApiError('INTERNAL', 500, 'Internal server error') : apiError(code, detail);

  app.get<{ Params: { id: string } }>('/v1/checks/:id', async (req) => {
    const account = accountFor(req);
    if (!faults.has('ind7-cu-stale-read-cache')) return load(account, req.params.id, placeOf(req));
    // ind7-cu-stale-read-cache: a read-through cache in front of the store, which the update does not invalidate.
    const key = `${account} ${req.params.id}`;
    const cached = readCache.get(key);
    if (cached && Date.now() - cached.at < READ_CACHE_MS) return cached.check;
    const check = load(account, req.params.id, placeOf(req));
    readCache.set(key, { at: Date.now(), check });
    return check;
  });

  app.put<UpdateRoute>(
    '/v1/checks/:id',
    {
      // Strings for the query: coercion is off, and only the two literal spellings are booleans.
      schema: {
        querystring: { type: 'object', properties: { autoAssignAlerts: { type: 'string', enum: ['true', 'false'] } } },
        body: checkUpdateSchema(faults),
      },
      // The handler decides what a validation failure means (404 first, the leak and accept faults, cu-500).
      attachValidation: true,
      // ind-cu-checktype-case: enum input "normalised" before it is validated.
      preValidation: async (req, reply) => {
        // cu-content-type-exact: the body's media type compared as a whole string, its parameters included.
        if (faults.has('cu-content-type-exact') && req.headers['content-type'] !== 'application/json')
          return reply.code(415).type('application/json').send({ statusCode: 415, error: 'Unsupported Media Type', message: 'application/json only' });
        const b = req.body as Record<string, unknown> | null;
        // ind9-fo-unchanged-loose-equality: an offset equal (==) to the stored one is dropped as "unchanged" before the schema sees it.
        if (faults.has('ind9-fo-unchanged-loose-equality') && b && typeof b === 'object' && Object.hasOwn(b, 'frequencyOffset') && req.accountId) {
          const stored = store.get(req.accountId, req.params.id)?.frequencyOffset;
          if (stored !== undefined && b.frequencyOffset !== stored && b.frequencyOffset == stored) delete b.frequencyOffset;
        }
        // fo-offset-number-unchanged: an offset whose Number() is the stored one is dropped as "unchanged".
        if (faults.has('fo-offset-number-unchanged') && b && typeof b === 'object' && typeof b.frequencyOffset !== 'number' && req.accountId) {
          const stored = store.get(req.accountId, req.params.id)?.frequencyOffset;
          if (stored !== undefined && Number(b.frequencyOffset) === stored) delete b.frequencyOffset;
        }
        if (faults.has('ind-cu-checktype-case') && b && typeof b === 'object' && typeof b.checkType === 'string') {
          b.checkType = b.checkType.toUpperCase();
        }
        // ind6-cu-location-case: locations "cleaned up" (trimmed, lower-cased) before they are checked.
        if (faults.has('ind6-cu-location-case') && b && typeof b === 'object' && Array.isArray(b.locations)) {
          b.locations = b.locations.map((l: unknown) => (typeof l === 'string' ? l.trim().toLowerCase() : l));
        }
      },
    },
    async (req, reply) => {
      // apply-before:<auth rule>: the body is applied to the check named by the id, then refused.
      if (req.deferredRefusal) {
        const owner = store.ownerOf(req.params.id);
        const early = owner && leakedValues(req.body, [...UPDATE_PROPERTIES]);
        if (owner && early) store.put(owner, { ...store.get(owner, req.params.id)!, ...early, id: req.params.id });
        throw req.deferredRefusal;
      }
      const account = accountFor(req) ?? '';
      // ind6-cu-put-upserts: PUT read as "create or replace", so an unknown GUID starts a new check.
      // ind9-err-two-problems-status: the lookup's 404 set on the reply, then the first collected problem (the body's) rendered as its body.
      const v0 = req.validationError;
      if (faults.has('ind9-err-two-problems-status') && v0?.validationContext === 'body' && !(req.accountId && store.get(account, req.params.id)))
        return sendError(reply, 404, errorBody(400, `Invalid request body: ${v0.message}`));
      // err-two-problems-404-body: the body's 400 as the status, the lookup's not-found error as the body.
      if (faults.has('err-two-problems-404-body') && v0?.validationContext === 'body' && !(req.accountId && store.get(account, req.params.id)))
        return sendError(reply, 400, errorBody(404, `Check ${req.params.id} not found`));
      const upsert = faults.has('ind6-cu-put-upserts') && GUID.test(req.params.id) && !(req.accountId && store.get(req.accountId, req.params.id));
      const current = upsert ? madeUpCheck(req.params.id) : load(accountFor(req), req.params.id, placeOf(req));
      const body: unknown = req.body;
      const v = req.validationError;
      // ind6-cu-query-checked-after-write: the query only matters for new checks, so it is judged after the write.
      const queryLater = faults.has('ind6-cu-query-checked-after-write') && v?.validationContext === 'querystring';
      // ind9-cu-browser-description-unbounded: a browser check's body validated by the browser schema, whose description has no maxLength.
      const browserUnbounded =
        faults.has('ind9-cu-browser-description-unbounded') &&
        current.checkType === 'BROWSER' &&
        v?.validationContext === 'body' &&
        typeof (body as Record<string, unknown>).description === 'string' &&
        (v.validation ?? []).every((e: { instancePath?: string }) => e.instancePath === '/description');
      const problems: string[] = v && !queryLater && !browserUnbounded ? [v.message] : [];
      if (!problems.length) {
        const b = body as Record<string, unknown>;
        // ind-fo-null-offset: null read as "leave the offset as it is".
        if (faults.has('ind-fo-null-offset') && b.frequencyOffset === null) delete b.frequencyOffset;
        // ind8-cu-description-null-500: the length counted in code points before anyone asked whether there is a description.
        if (faults.has('ind8-cu-description-null-500') && Object.hasOwn(b, 'description') && [...(b.description as string)].length > DESCRIPTION_MAX)
          problems.push(`description: at most ${DESCRIPTION_MAX} characters`);
        // ind-cu-description-bytes: measured as the database column counts it, in UTF-8 bytes.
        if (faults.has('ind-cu-description-bytes') && typeof b.description === 'string' && Buffer.byteLength(b.description) > DESCRIPTION_MAX)
          problems.push(`description: at most ${DESCRIPTION_MAX} characters`);
        const offset =
          faults.has('fo-string-offset') && typeof b.frequencyOffset === 'string' ? Number(b.frequencyOffset) : (b.frequencyOffset as number | undefined);
        if (offset !== undefined) b.frequencyOffset = offset;
        // ind-fo-stale-offset: the pair is checked only when an offset is sent (or the frequency is 0).
        const unchecked = faults.has('ind-fo-stale-offset') && offset === undefined && typeof b.frequency === 'number' && b.frequency > 0;
        // ind-fo-type-change-at-zero: a new checkType is looked at only together with a new frequency.
        const newType = faults.has('ind-fo-type-change-at-zero') && b.frequency === undefined ? undefined : b.checkType;
        const sentFrequency = b.frequency as number | undefined;
        // ind7-fo-zero-falsy: `||` where `??` was meant, so a frequency of 0 falls back to the stored one.
        // ind9-fo-refused-frequency-remembered: the last frequency received for the check stands in for a missing one, refused bodies' too.
        const draftKey = `${account} ${current.id}`;
        const remembered = faults.has('ind9-fo-refused-frequency-remembered') && sentFrequency === undefined ? lastFrequency.get(draftKey) : undefined;
        if (faults.has('ind9-fo-refused-frequency-remembered') && typeof sentFrequency === 'number') lastFrequency.set(draftKey, sentFrequency);
        const draft = faults.has('fo-refused-draft-frequency') && sentFrequency === undefined ? draftFrequency.get(draftKey) : undefined;
        const frequency = faults.has('ind7-fo-zero-falsy') ? sentFrequency || current.frequency : (sentFrequency ?? remembered ?? draft ?? current.frequency);
        // ind8-fo-offset-before-frequency-key: the body applied to a draft key by key, the offset judged by its setter against the
        // draft's frequency so far (the stored one when frequency comes later in the body); the frequency setter checks the type only.
        const keys = Object.keys(b);
        const offsetFirst =
          (faults.has('ind8-fo-offset-before-frequency-key') || faults.has('fo-key-order')) &&
          keys.includes('frequency') &&
          keys.indexOf('frequencyOffset') >= 0 &&
          keys.indexOf('frequencyOffset') < keys.indexOf('frequency');
        const finalType = (newType as string | undefined) ?? current.checkType;
        const p = unchecked
          ? null
          : offsetFirst
            ? (offsetProblem(current.frequency, offset ?? current.frequencyOffset, current.checkType, faults) ??
              (frequency === 0 && finalType !== 'API' ? 'frequency 0 is only allowed for API checks' : null))
            : offsetProblem(
                // ind6-fo-old-frequency: the offset judged against the check as stored.
                faults.has('ind6-fo-old-frequency') ? current.frequency : frequency,
                offset ?? current.frequencyOffset,
                finalType,
                faults,
              );
        if (p) problems.push(p);
        if (faults.has('fo-refused-draft-frequency')) {
          if (p && typeof sentFrequency === 'number') draftFrequency.set(draftKey, sentFrequency);
          else if (!p) draftFrequency.delete(draftKey);
        }
        if (faults.has('ind6-cu-removed-runtime-refused') && typeof b.runtimeId === 'string' && REMOVED_RUNTIMES.includes(b.runtimeId))
          problems.push(`runtimeId: runtime ${b.runtimeId} is removed`);
        // cu-runtime-pinned-newest: a check on the newest runtime is pinned there.
        if (faults.has('cu-runtime-pinned-newest') && current.runtimeId === NEWEST_RUNTIME && typeof b.runtimeId === 'string' && b.runtimeId !== NEWEST_RUNTIME)
          problems.push(`runtimeId: a check on ${NEWEST_RUNTIME} stays there`);
        // ind9-cu-runtime-no-downgrade: "a check only moves to newer runtimes", enforced on every update.
        if (
          faults.has('ind9-cu-runtime-no-downgrade') &&
          typeof b.runtimeId === 'string' &&
          typeof current.runtimeId === 'string' &&
          b.runtimeId < current.runtimeId
        )
          problems.push(`runtimeId: cannot go back from ${current.runtimeId} to ${b.runtimeId}`);
        // ind7-cu-runtime-range-check: any YYYY.MM from the oldest runtime to the newest passes.
        if (faults.has('ind7-cu-runtime-range-check') && typeof b.runtimeId === 'string' && (b.runtimeId < OLDEST_RUNTIME || b.runtimeId > NEWEST_RUNTIME))
          problems.push(`runtimeId: must be a runtime from ${OLDEST_RUNTIME} to ${NEWEST_RUNTIME}`);
      }
      // The table-driven faults: one body pattern on the check of one type, too loose or too strict. The
      // check's type as seeded: a body taken by one fault must not turn the next one off.
      const faultType = SEEDED_TYPES.get(current.id) ?? current.checkType;
      if (!problems.length && faults.bodyMatches('crash', faultType, body)) throw new Error(`fault crash: the update of ${current.id} failed`);
      if (faults.bodyMatches('accept', faultType, body)) problems.length = 0;
      else if (!problems.length && faults.bodyMatches('refuse', faultType, body)) problems.push('these values are not allowed together');
      if (problems.length) {
        // ind-cu-flags-applied-early: activated/muted are sent to the scheduler before the body is judged.
        const flags = faults.has('ind-cu-flags-applied-early') ? leakedValues(body, ['activated', 'muted']) : null;
        const toggles = Object.entries(flags ?? {}).filter(([, value]) => typeof value === 'boolean');
        if (toggles.length) store.put(account, { ...current, ...Object.fromEntries(toggles), id: current.id });
        const leaked = leakedValues(body, faults.leakedProperties());
        if (leaked) store.put(account, { ...current, ...leaked, id: current.id });
        const querystringOnly = v?.validationContext === 'querystring';
        // apply-before:query: the body is stored before the query parameter is looked at.
        const early = querystringOnly && faults.appliesBefore('query') ? leakedValues(body, [...UPDATE_PROPERTIES]) : null;
        if (early) store.put(account, { ...current, ...early, id: current.id });
        // ind7-cu-rollback-to-seed: the refusal restores the unit of work's snapshot, which is of the check as first loaded.
        const snapshot = faults.has('ind7-cu-rollback-to-seed') ? firstLoaded.get(`${account} ${current.id}`) : undefined;
        if (snapshot) store.put(account, snapshot);
        // ind9-cu-shallow-copy-arrays: the draft (built to judge the offset after the update) shares the stored arrays, replaced in place.
        const inPlace =
          faults.has('ind9-cu-shallow-copy-arrays') && !v
            ? leakedValues(
                body,
                UPDATE_PROPERTIES.filter((k) => Array.isArray((body as Record<string, unknown>)[k])),
              )
            : null;
        if (inPlace) store.put(account, { ...current, ...inPlace, id: current.id });
        const drafted = faults.has('cu-refused-draft-kept') ? leakedValues(body, ['name', 'tags']) : null;
        if (drafted) draft.set(`${account} ${current.id}`, { ...draft.get(`${account} ${current.id}`), ...drafted });
        throw reject(querystringOnly ? 'INVALID_QUERY' : 'INVALID_BODY', problems.join('; '));
      }
      const sent = body as Record<string, unknown>;
      // cu-no-op-refused: an update that would change nothing is refused as a mistake of the client.
      if (faults.has('cu-no-op-refused') && Object.keys(sent).every((k) => JSON.stringify(sent[k]) === JSON.stringify(current[k])))
        throw reject('INVALID_BODY', 'the update changes nothing');
      const updated: Check = { ...current, ...draft.get(`${account} ${current.id}`), updated_at: new Date().toISOString() };
      draft.delete(`${account} ${current.id}`);
      for (const k of UPDATE_PROPERTIES as readonly string[]) {
        // ind8-cu-deep-merge-arrays: the body merged into the check the way lodash's merge does, arrays by index.
        if (Object.hasOwn(sent, k) && !(faults.has('cu-null-ignored') && sent[k] === null))
          updated[k] = faults.has('ind8-cu-deep-merge-arrays') ? deepMerge(current[k], sent[k]) : sent[k];
      }
      // ind8-cu-concurrent-lost-update: the catalogue is asked (asynchronously) between the read above and the write below, with no lock.
      if (faults.has('ind8-cu-concurrent-lost-update') || faults.has('cu-lost-update'))
        await new Promise((resolve) => setTimeout(resolve, CATALOGUE_ROUND_TRIP_MS));
      // ind9-cu-utf8mb3-astral: the row goes through a 3-byte utf8 column; the answer is built from the object in memory.
      // cu-astral-dropped: the name's writer strips what the column cannot hold.
      const kept = faults.has('cu-astral-dropped') ? { ...updated, name: throughUtf8mb3(updated.name, '') as string } : updated;
      if (!faults.has('cu-not-persisted')) store.put(account, faults.has('ind9-cu-utf8mb3-astral') ? (throughUtf8mb3(kept) as Check) : kept);
      if (queryLater) throw reject('INVALID_QUERY', v.message);
      return updated;
    },
  );
}

/** ind8-cu-deep-merge-arrays: lodash's merge: objects key by key, arrays index by index, anything else replaced. */
function deepMerge(into: unknown, from: unknown): unknown {
  if (Array.isArray(into) && Array.isArray(from)) return into.map((v, i) => (i < from.length ? deepMerge(v, from[i]) : v)).concat(from.slice(into.length));
  const plain = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);
  if (plain(into) && plain(from))
    return Object.fromEntries(
      [...Object.keys(into), ...Object.keys(from).filter((k) => !Object.hasOwn(into, k))].map((k) => [
        k,
        Object.hasOwn(from, k) ? deepMerge(into[k], from[k]) : into[k],
      ]),
    );
  return from;
}

/** What a rejected body leaks into the store under the leak faults (null: nothing). */
function leakedValues(body: unknown, properties: string[]): Record<string, unknown> | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const present = properties.filter((p) => Object.hasOwn(body, p));
  return present.length ? Object.fromEntries(present.map((p) => [p, (body as Record<string, unknown>)[p]])) : null;
}
