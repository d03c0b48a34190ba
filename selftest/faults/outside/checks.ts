/**
 * The check update and frequencyOffset faults (CU, FO), and the kinds of the update (accept, refuse,
 * crash, leak, take-body, apply-before, unknown-check), applied from outside the service. Most replace
 * one step of the update (reference/service/checks/seams.ts) with one made from the service's own: the
 * body schema, the offset rules, whose check an id names and the answer to one the account has not got,
 * the schedule the offset is judged against, the problems of an update, what a refused one leaves, and
 * the check as merged and stored. The rest are hooks on the update route: a body "normalised" before
 * it is validated, or a request answered before the handler. Each comment says how the bug came about.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Faults } from '../catalogue/fault-set';
import type { FaultKind } from '../catalogue/fault-kinds';
import { GUID } from '../../../reference/service/accounts';
import { ApiError, apiError, errorBody } from '../../../reference/service/errors/catalogue';
import { rangeProblem, SUB_MINUTE_OFFSETS } from '../../../reference/service/checks/frequency-offset';
import type { CheckSeams, Update } from '../../../reference/service/checks/seams';
import { newCheck, seedChecks, type Check } from '../../../reference/service/checks/store';
import { DESCRIPTION_MAX, RUNTIME_VERSIONS, UPDATE_PROPERTIES } from '../../../reference/service/checks/vocabulary';
import { RUNTIMES } from '../../../reference/service/runtimes/data';
import { all, type Json, type KindFault, type NamedFault, type OutsideFault, type Seam } from './seams';
import { TEST_FILES } from '../../../support/run/test-files';
import { reaching } from './reaching';

const CHECK_ROUTE = '/v1/checks/:id';
const JSON_TYPE = 'application/json; charset=utf-8';
const idOf = (req: FastifyRequest) => (req.params as { id?: string }).id ?? '';
const keyOf = (account: string | null, id: string) => `${account} ${id}`;
/** The body as sent: the steps that read it do so once the schema passed it (a JSON object). */
const sent = (u: Update) => u.body as Record<string, unknown>;
/** A body of the JSON object kind (an array too, as `typeof` sees it). */
const objectBody = (b: unknown): b is Record<string, unknown> => !!b && typeof b === 'object';

/** One step of the update replaced by one made from the service's own (and the other steps, read when called). */
const step =
  <K extends Exclude<keyof CheckSeams, 'store'>>(key: K, wrap: (own: CheckSeams[K], checks: CheckSeams) => CheckSeams[K]): Seam =>
  (_app, seams) => {
    seams.checks[key] = wrap(seams.checks[key], seams.checks);
  };

/** A hook on the update route only. */
const onUpdate =
  (hook: 'preValidation' | 'preHandler', run: (req: FastifyRequest, reply: FastifyReply, checks: CheckSeams) => Promise<unknown>): Seam =>
  (app, seams) => {
    app.addHook(hook, async (req, reply) => {
      if (req.method === 'PUT' && req.routeOptions.url === CHECK_ROUTE) return run(req, reply, seams.checks);
    });
  };

/** The body schema's properties edited (the schema is made afresh each time the service asks for it). */
const schema = (edit: (props: Json) => void): Seam =>
  step('bodySchema', (own) => () => {
    const made = own();
    edit((made as Json).properties);
    return made;
  });

/** One more problem of a body the schema passed, after (or before) the service's own. */
const problem = (find: (body: Record<string, unknown>, u: Update) => string | null, first = false): Seam =>
  step('problems', (own) => (u) => {
    const mine = u.invalid ? null : find(sent(u), u);
    if (first && mine) return [mine, ...own(u)];
    const problems = own(u);
    return mine ? [...problems, mine] : problems;
  });

/** What a refused update also does before it is refused. */
const onDiscard = (run: (u: Update, checks: CheckSeams) => void): Seam =>
  step('discard', (own, checks) => async (u) => {
    await own(u);
    run(u, checks);
  });

/** These properties of a body, as sent (null: the body holds none of them). */
function valuesOf(body: unknown, properties: readonly string[]): Record<string, unknown> | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const present = properties.filter((p) => Object.hasOwn(body, p));
  return present.length ? Object.fromEntries(present.map((p) => [p, (body as Record<string, unknown>)[p]])) : null;
}

/** The check as stored, with these values written over it. */
const writeOver = (checks: CheckSeams, account: string, check: Check, values: Record<string, unknown> | null) => {
  if (values) checks.store.put(account, { ...check, ...values, id: check.id });
};

/** A check made up for an id nobody stored. */
const madeUp = (id: string): Check => newCheck(id, 'Untitled check', 'API');

type Row<K extends FaultKind['kind']> = Extract<FaultKind, { kind: K }>;

/**
 * unknown-check: ids of one shape made up (200) or blowing up (500) on one route; for `foreign`, another
 * account's check looked up by its id alone (found: the update is of that account's check), or the lookup blowing up.
 */
const unknownCheck = (rows: Array<Row<'unknown-check'>>): Seam => {
  const set = new Faults(rows);
  return all(
    step('unknownId', (own) => (id, place) => {
      const answer = set.unknownCheckAnswer(place, GUID.test(id) ? 'guid' : 'other');
      if (answer === 'fail') throw new Error('check lookup failed');
      return answer === 'found' ? madeUp(id) : own(id, place);
    }),
    step('holder', (own, checks) => (account, id, place) => {
      const owner = account ? checks.store.ownerOf(id) : undefined;
      if (!owner || owner === account) return own(account, id, place);
      const answer = set.unknownCheckAnswer(place, 'foreign');
      if (answer === 'fail') throw new Error('check lookup failed');
      return answer === 'found' ? owner : own(account, id, place);
    }),
  );
};

/** leak: a rejected body still stores these properties, as sent. */
const leak = (properties: string[]): Seam => onDiscard((u, checks) => writeOver(checks, u.account, u.check, valuesOf(u.body, properties)));

/** The type each seeded check was made with: a table row is of a check, whatever it has become. */
const SEEDED_TYPES: ReadonlyMap<string, string> = new Map(seedChecks().map((c) => [c.id, c.checkType]));
const seededType = (check: Check) => SEEDED_TYPES.get(check.id) ?? check.checkType;

/** accept / refuse / crash: one body pattern on the check of one type, too loose, too strict, or meeting a bug. */
const table = (kind: 'accept' | 'refuse' | 'crash', rows: FaultKind[]): Seam => {
  const set = new Faults(rows);
  return step('problems', (own) => (u) => {
    const problems = own(u);
    const matches = set.bodyMatches(kind, seededType(u.check), u.body);
    if (kind === 'crash' && matches && !problems.length) throw new Error(`the update of ${u.check.id} failed`);
    if (kind === 'accept' && matches) return [];
    if (kind === 'refuse' && matches && !problems.length) return ['these values are not allowed together'];
    return problems;
  });
};

/** The update route answered before its handler: a body the schema refused, sent to an id the account has not got. */
const beforeHandler = (answer: (id: string, message: string) => { status: number; body: Record<string, unknown> }): Seam =>
  onUpdate('preHandler', async (req, reply, checks) => {
    const v = req.validationError;
    if (v?.validationContext !== 'body') return;
    const account = checks.holder(req.accountId, idOf(req), 'check-update') ?? '';
    if (req.accountId && checks.store.get(account, idOf(req))) return;
    const { status, body } = answer(idOf(req), v.message);
    return reply.code(status).type(JSON_TYPE).send(JSON.stringify(body));
  });

/** The offset judged by its setter, key by key: against the stored frequency and type when it comes before the frequency in the body. */
const offsetBeforeFrequency: Seam = step('problems', (own, checks) => (u) => {
  const keys = Object.keys(u.invalid ? {} : sent(u));
  const first = keys.includes('frequency') && keys.indexOf('frequencyOffset') >= 0 && keys.indexOf('frequencyOffset') < keys.indexOf('frequency');
  if (!first) return own(u);
  const after = checks.schedule(u);
  // The frequency setter checks the type only.
  const found =
    checks.offsetProblem(u.check.frequency, after.offset, u.check.checkType) ??
    (after.frequency === 0 && after.checkType !== 'API' ? 'frequency 0 is only allowed for API checks' : null);
  return found ? [found] : [];
});

/** A character a 3-byte utf8 column cannot hold (outside the Basic Multilingual Plane). */
const ASTRAL = /[\u{10000}-\u{10FFFF}]/gu;
/** What a 3-byte utf8 column keeps of a value: each astral character becomes `instead`. */
const throughUtf8mb3 = (value: unknown, instead = '?'): unknown =>
  typeof value === 'string'
    ? value.replace(ASTRAL, instead)
    : Array.isArray(value)
      ? value.map((v) => throughUtf8mb3(v, instead))
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, throughUtf8mb3(v, instead)]))
        : value;

/** How long the update waits for the catalogue between its read and its write. */
const CATALOGUE_ROUND_TRIP_MS = 20;
/** The read and the write with the catalogue's round trip between them, and no lock. */
const lostUpdate: Seam = step('save', (own) => async (u, updated) => {
  await new Promise((resolve) => setTimeout(resolve, CATALOGUE_ROUND_TRIP_MS));
  await own(u, updated);
});

/** lodash's merge: objects key by key, arrays index by index, anything else replaced. */
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

/** The runtimes read as no longer selectable. */
const REMOVED_RUNTIMES: readonly string[] = RUNTIMES.filter((r) => r.stage === 'REMOVED').map((r) => r.name);
/** The oldest and the newest runtime, as YYYY.MM strings compare. */
const [OLDEST_RUNTIME, NEWEST_RUNTIME] = [[...RUNTIME_VERSIONS].sort()[0], [...RUNTIME_VERSIONS].sort().pop()!];
/** How long a read of a check is served from the cache. */
const READ_CACHE_MS = 30_000;

const badBody = (message: string) => Object.assign(new Error(message), { statusCode: 400 });

/** The update's body parsers. */
const BODIES: KindFault[] = [
  /**
   * take-body: bodies that are no JSON object read as {} (the update then changes nothing and answers
   * 200), as a lenient parser would. The JSON parser is replaced only when one of its shapes is taken.
   */
  {
    kind: 'take-body',
    clauses: ['CU-7'],
    apply: (rows) => (app) => {
      const takes = (shape: Row<'take-body'>['shape']) => rows.some((r) => r.shape === shape);
      if (takes('text')) app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, _text, done) => done(null, {}));
      if (takes('array'))
        app.addHook('preValidation', async (req) => {
          if (Array.isArray(req.body)) req.body = {};
        });
      if (!takes('not-json') && !takes('empty')) return;
      app.removeContentTypeParser('application/json');
      app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
        const text = String(body);
        if (text.trim() === '')
          return takes('empty') ? done(null, {}) : done(badBody('Body cannot be empty when content-type is set to application/json'), undefined);
        try {
          done(null, JSON.parse(text));
        } catch {
          if (takes('not-json')) done(null, {});
          else done(badBody('Body is not valid JSON'), undefined);
        }
      });
    },
  },
];

/** What a refused update stores first, in the order the refusal took them. */
const REFUSED_FIRST: OutsideFault[] = [
  // activated/muted sent to the scheduler before the body is judged.
  {
    name: 'ind-cu-flags-applied-early',
    what: 'activated/muted of a rejected update are saved anyway',
    list: 'independent',
    clauses: ['CU-7'],
    apply: onDiscard((u, checks) => {
      const toggles = Object.entries(valuesOf(u.body, ['activated', 'muted']) ?? {}).filter(([, value]) => typeof value === 'boolean');
      if (toggles.length) writeOver(checks, u.account, u.check, Object.fromEntries(toggles));
    }),
  },
  { name: 'cu-partial-apply', what: 'a rejected body still applies its name', clauses: ['CU-7'], apply: leak(['name']) },
  { kind: 'leak', clauses: ['CU-7'], apply: (rows) => leak(rows.map((r) => r.property)) } satisfies KindFault,
  /**
   * apply-before: the body applied to the check first, then refused. For an auth rule, the credentials'
   * layer kept its refusal on the request; the body goes to the check the id names, whoever holds it.
   * For the query, the body is stored before the query parameter is looked at.
   */
  {
    kind: 'apply-before',
    clauses: ['CU-7'],
    apply: (rows) =>
      all(
        onUpdate('preHandler', async (req, _reply, checks) => {
          if (!req.deferredRefusal) return;
          const owner = checks.store.ownerOf(idOf(req));
          if (owner) writeOver(checks, owner, checks.store.get(owner, idOf(req))!, valuesOf(req.body, UPDATE_PROPERTIES));
          throw req.deferredRefusal;
        }),
        rows.some((r) => r.rule === 'query')
          ? onDiscard((u, checks) => {
              if (u.invalid?.in === 'querystring') writeOver(checks, u.account, u.check, valuesOf(u.body, UPDATE_PROPERTIES));
            })
          : () => {},
      ),
  } satisfies KindFault,
];

/** The body "normalised" or refused before the schema sees it. */
const BEFORE_VALIDATION: NamedFault[] = [
  // The body's media type compared as a whole string, its parameters included.
  {
    name: 'cu-content-type-exact',
    what: 'the update refuses a content type other than exactly application/json (a charset parameter too)',
    clauses: ['CU-1'],
    apply: onUpdate('preValidation', async (req, reply) => {
      if (req.headers['content-type'] !== 'application/json')
        return reply.code(415).type('application/json').send({ statusCode: 415, error: 'Unsupported Media Type', message: 'application/json only' });
    }),
  },
  // An offset equal (==) to the stored one dropped as "unchanged" before the schema sees it.
  {
    name: 'ind9-fo-unchanged-loose-equality',
    what: 'an offset == the stored one (loose) is dropped as unchanged: "1", true, [1] accepted while the stored offset is 1',
    list: 'independent-9',
    clauses: ['FO-4'],
    apply: onUpdate('preValidation', async (req, _reply, checks) => {
      const b = req.body;
      if (!objectBody(b) || !Object.hasOwn(b, 'frequencyOffset') || !req.accountId) return;
      const stored = checks.store.get(req.accountId, idOf(req))?.frequencyOffset;
      if (stored !== undefined && b.frequencyOffset !== stored && b.frequencyOffset == stored) delete b.frequencyOffset;
    }),
  },
  // An offset whose Number() is the stored one dropped as "unchanged".
  {
    name: 'fo-offset-number-unchanged',
    what: 'an offset whose Number() is the stored one ("1", [1], true while 1 is stored) is dropped as unchanged',
    clauses: ['FO-4'],
    apply: onUpdate('preValidation', async (req, _reply, checks) => {
      const b = req.body;
      if (!objectBody(b) || typeof b.frequencyOffset === 'number' || !req.accountId) return;
      const stored = checks.store.get(req.accountId, idOf(req))?.frequencyOffset;
      if (stored !== undefined && Number(b.frequencyOffset) === stored) delete b.frequencyOffset;
    }),
  },
  // Enum input "normalised" before it is validated.
  {
    name: 'ind-cu-checktype-case',
    what: 'checkType upper-cased before validation: "api", "browser" accepted',
    list: 'independent',
    clauses: ['CU-6'],
    apply: onUpdate('preValidation', async (req) => {
      const b = req.body;
      if (objectBody(b) && typeof b.checkType === 'string') b.checkType = b.checkType.toUpperCase();
    }),
  },
  // Locations "cleaned up" (trimmed, lower-cased) before they are checked.
  {
    name: 'ind6-cu-location-case',
    what: 'locations trimmed and lower-cased before validation: "EU-WEST-1", " eu-west-1" accepted',
    list: 'independent-6',
    clauses: ['CU-4'],
    apply: onUpdate('preValidation', async (req) => {
      const b = req.body;
      if (objectBody(b) && Array.isArray(b.locations)) b.locations = b.locations.map((l: unknown) => (typeof l === 'string' ? l.trim().toLowerCase() : l));
    }),
  },
];

/** The body schema, too loose or too strict. */
const SCHEMA: NamedFault[] = [
  {
    name: 'cu-unknown-location',
    what: 'unknown location accepted',
    clauses: ['CU-4'],
    apply: schema((p) => (p.locations.items = { type: 'string', minLength: 1 })),
  },
  { name: 'cu-empty-locations', what: 'empty locations array accepted', clauses: ['CU-4'], apply: schema((p) => (p.locations.minItems = 0)) },
  // What a location looks like, instead of the list of the 22.
  {
    name: 'ind-cu-location-pattern',
    what: 'locations checked by pattern: look-alikes such as us-east-3 accepted',
    list: 'independent',
    clauses: ['CU-4'],
    apply: schema(
      (p) => (p.locations.items = { type: 'string', pattern: '^(us|ca|sa|eu|me|ap|af)-(north|south|east|west|central|northeast|southeast)-[1-9]$' }),
    ),
  },
  // "The values come from this list" written as contains, which asks for one of them only.
  {
    name: 'ind8-cu-locations-contains',
    what: 'locations validated with "contains" (at least one allowed value), not "items": ["eu-west-1", "mars-1"] accepted',
    list: 'independent-8',
    clauses: ['CU-4'],
    apply: schema((p) => (p.locations = { type: 'array', minItems: 1, items: { type: 'string' }, contains: p.locations.items })),
  },
  { name: 'cu-negative-grouporder', what: 'groupOrder -1 accepted', clauses: ['CU-3'], apply: schema((p) => (p.groupOrder.anyOf[0].minimum = -1)) },
  // "Position in its group" read as 1-based.
  {
    name: 'ind7-cu-grouporder-zero-refused',
    what: 'groupOrder read as a 1-based position: 0 refused',
    list: 'independent-7',
    clauses: ['CU-3'],
    apply: schema((p) => (p.groupOrder.anyOf[0].minimum = 1)),
  },
  { name: 'cu-unknown-runtime', what: 'unknown runtimeId accepted', clauses: ['CU-5'], apply: schema((p) => (p.runtimeId.anyOf[0] = { type: 'string' })) },
  // The form YYYY.MM in the schema, the range (oldest..newest) in the code: any YYYY.MM from the oldest runtime to the newest passes.
  {
    name: 'ind7-cu-runtime-range-check',
    what: 'runtimeId checked as a YYYY.MM between the oldest and the newest runtime: 2025.01, 2024.13 accepted',
    list: 'independent-7',
    clauses: ['CU-5'],
    apply: all(
      schema((p) => (p.runtimeId.anyOf[0] = { type: 'string', pattern: '^[0-9]{4}\\.[0-9]{2}$' })),
      problem((b) =>
        typeof b.runtimeId === 'string' && (b.runtimeId < OLDEST_RUNTIME || b.runtimeId > NEWEST_RUNTIME)
          ? `runtimeId: must be a runtime from ${OLDEST_RUNTIME} to ${NEWEST_RUNTIME}`
          : null,
      ),
    ),
  },
  {
    name: 'cu-description-501',
    what: 'description limit is 501 characters',
    clauses: ['CU-2'],
    apply: schema((p) => (p.description.anyOf[0].maxLength = DESCRIPTION_MAX + 1)),
  },
  { name: 'cu-unknown-checktype', what: 'unknown checkType accepted', clauses: ['CU-6'], apply: schema((p) => (p.checkType = { type: 'string' })) },
  { name: 'fo-fractional', what: 'fractional frequencyOffset (1.5) accepted', clauses: ['FO-4'], apply: schema((p) => (p.frequencyOffset.type = 'number')) },
  // The offset "5" coerced: a string of digits passes the schema, and is stored as its number.
  {
    name: 'fo-string-offset',
    what: 'frequencyOffset "5" coerced and accepted',
    clauses: ['FO-4'],
    apply: all(
      schema(
        (p) =>
          (p.frequencyOffset = {
            anyOf: [
              { type: 'integer', minimum: 1 },
              { type: 'string', pattern: '^[0-9]+$' },
            ],
          }),
      ),
      onUpdate('preHandler', async (req) => {
        const b = req.body;
        if (!req.validationError && objectBody(b) && typeof b.frequencyOffset === 'string') b.frequencyOffset = Number(b.frequencyOffset);
      }),
    ),
  },
  // The offset declared nullable like its neighbours, and null then read as "leave it as it is".
  {
    name: 'ind-fo-null-offset',
    what: 'frequencyOffset null accepted (treated as unchanged)',
    list: 'independent',
    clauses: ['FO-4'],
    apply: all(
      schema((p) => (p.frequencyOffset = { anyOf: [p.frequencyOffset, { type: 'null' }] })),
      onUpdate('preHandler', async (req) => {
        const b = req.body;
        if (!req.validationError && objectBody(b) && b.frequencyOffset === null) delete b.frequencyOffset;
      }),
    ),
  },
  // Offset 0 accepted: the schema's minimum and the range's lower bound both 0.
  {
    name: 'fo-offset-zero',
    what: 'frequencyOffset 0 accepted',
    clauses: ['FO-4'],
    apply: all(
      schema((p) => (p.frequencyOffset.minimum = 0)),
      step('offsetProblem', (own) => (frequency, offset, checkType) => own(frequency, frequency > 0 && offset === 0 ? 1 : offset, checkType)),
    ),
  },
];

/** An offset at frequency 0 judged as one of the allowed ones (the type is still judged). */
const subMinuteAllowed = (own: CheckSeams['offsetProblem'], checkType: string) => own(0, SUB_MINUTE_OFFSETS[0], checkType);

/** The offset rules, and the frequency, offset and type they judge. */
const OFFSET_RULES: NamedFault[] = [
  {
    name: 'fo-upper-off-by-one-low',
    what: 'frequency <= 60 accepts offset floor(f*10)+1',
    clauses: ['FO-2'],
    apply: step('maxOffset', (own) => (f) => (f <= 60 ? own(f) + 1 : own(f))),
  },
  {
    name: 'fo-upper-off-by-one-high',
    what: 'frequency > 60 accepts offset ceil(f/60)+1',
    clauses: ['FO-3'],
    apply: step('maxOffset', (own) => (f) => (f > 60 ? own(f) + 1 : own(f))),
  },
  {
    name: 'fo-too-strict',
    what: 'the maximum offset itself is rejected (both ranges)',
    clauses: ['FO-2', 'FO-3'],
    apply: step('maxOffset', (own) => (f) => own(f) - 1),
  },
  // The boundary read as "60 and above" for the hourly rule.
  {
    name: 'ind6-fo-sixty-high-rule',
    what: 'frequency 60 checked by the "above 60" rule: only offset 1 accepted',
    list: 'independent-6',
    clauses: ['FO-2'],
    apply: step('maxOffset', (own) => (f) => (f === 60 ? Math.ceil(f / 60) : own(f))),
  },
  // The hourly rule fed the frequency already converted to hours (the scheduler's unit above 60), then divided by 60 again.
  {
    name: 'ind9-fo-hourly-in-hours',
    what: 'frequencies above 60 are converted to hours before ceil(frequency / 60): only offset 1 accepted above 60',
    list: 'independent-9',
    clauses: ['FO-3'],
    apply: step('maxOffset', (own) => (f) => (f > 60 ? Math.ceil(f / 60 / 60) : own(f))),
  },
  {
    name: 'fo-zero-any',
    what: 'frequency 0 accepts any integer offset >= 1',
    clauses: ['FO-1'],
    apply: step('offsetProblem', (own) => (f, o, t) => (f === 0 && Number.isInteger(o) && o >= 1 ? subMinuteAllowed(own, t) : own(f, o, t))),
  },
  {
    name: 'fo-zero-browser',
    what: 'frequency 0 accepted on non-API checks',
    clauses: ['FO-5'],
    apply: step('offsetProblem', (own) => (f, o, t) => own(f, o, f === 0 ? 'API' : t)),
  },
  // "API checks only" enforced as "not for browser checks".
  {
    name: 'ind8-fo-zero-denylist-browser',
    what: 'frequency 0 refused only for BROWSER checks (a deny-list): MULTI_STEP, TCP, … accept frequency 0',
    list: 'independent-8',
    clauses: ['FO-5'],
    apply: step('offsetProblem', (own) => (f, o, t) => own(f, o, f === 0 && t !== 'BROWSER' ? 'API' : t)),
  },
  // "10, 20 or 30" read as the range 10..30.
  {
    name: 'ind6-fo-zero-range',
    what: 'frequency 0 accepts any offset from 10 to 30 (15, 25), not only 10, 20, 30',
    list: 'independent-6',
    clauses: ['FO-1'],
    apply: step('offsetProblem', (own) => (f, o, t) => (f === 0 && o >= 10 && o <= 30 ? subMinuteAllowed(own, t) : own(f, o, t))),
  },
  // The case for frequency 0 lacks its break, so the range case runs too (1..floor(0 * 10)).
  {
    name: 'ind8-fo-zero-switch-fallthrough',
    what: 'a switch on the frequency falls through from the frequency 0 case into the range case (1..0): offsets 10, 20, 30 refused',
    list: 'independent-8',
    clauses: ['FO-1'],
    apply: step('offsetProblem', (own, checks) => (f, o, t) => (f === 0 ? (own(f, o, t) ?? rangeProblem(0, o, checks.maxOffset(0))) : own(f, o, t))),
  },
  // The offset ranges written for the API checks' scheduler, and checked for those only.
  {
    name: 'ind7-fo-browser-range-unchecked',
    what: 'the offset ranges of frequency > 0 checked on API checks only: a browser check takes any offset',
    list: 'independent-7',
    clauses: ['FO-2', 'FO-3'],
    apply: step('offsetProblem', (own) => (f, o, t) => (f > 0 && t !== 'API' ? null : own(f, o, t))),
  },
  // `||` where `??` was meant, so a frequency of 0 falls back to the stored one.
  {
    name: 'ind7-fo-zero-falsy',
    what: 'frequency 0 in the body replaced by the stored frequency (`||`): the offset and check type judged as for that frequency',
    list: 'independent-7',
    clauses: ['FO-1', 'FO-5'],
    apply: step('schedule', (own) => (u) => (sent(u).frequency === 0 ? { ...own(u), frequency: u.check.frequency } : own(u))),
  },
  // The offset judged against the check as stored.
  {
    name: 'ind6-fo-old-frequency',
    what: 'frequencyOffset checked against the stored frequency when the body changes both',
    list: 'independent-6',
    clauses: ['FO-2', 'FO-3'],
    apply: step('schedule', (own) => (u) => ({ ...own(u), frequency: u.check.frequency })),
  },
  // A new checkType looked at only together with a new frequency.
  {
    name: 'ind-fo-type-change-at-zero',
    what: 'checkType sent without frequency is not checked against a stored frequency 0',
    list: 'independent',
    clauses: ['FO-5'],
    apply: step('schedule', (own) => (u) => (sent(u).frequency === undefined ? { ...own(u), checkType: u.check.checkType } : own(u))),
  },
  // The pair checked only when an offset is sent (or the frequency is 0).
  {
    name: 'ind-fo-stale-offset',
    what: 'frequency > 0 sent without frequencyOffset is not checked against the stored offset',
    list: 'independent',
    clauses: ['FO-2', 'FO-3'],
    apply: step('problems', (own) => (u) => {
      const problems = own(u);
      const b = sent(u);
      return !u.invalid && b.frequencyOffset === undefined && typeof b.frequency === 'number' && b.frequency > 0 ? [] : problems;
    }),
  },
  // The last frequency received for the check, refused bodies' too, stands in for a missing one.
  {
    name: 'ind9-fo-refused-frequency-remembered',
    what: 'the frequency of the last body received for a check (a refused one too) is remembered and used when a body sends none',
    list: 'independent-9',
    clauses: ['FO-2'],
    apply: (app, seams) => {
      const last = new Map<string, number>();
      step('schedule', (own) => (u) => {
        const key = keyOf(u.account, u.check.id);
        const frequency = sent(u).frequency;
        const remembered = frequency === undefined ? last.get(key) : undefined;
        if (typeof frequency === 'number') last.set(key, frequency);
        return remembered === undefined ? own(u) : { ...own(u), frequency: remembered };
      })(app, seams);
    },
  },
  // The frequency of a body refused by the offset rules left in the check's draft until an update is accepted.
  {
    name: 'fo-refused-draft-frequency',
    what: 'the frequency of a body refused by the offset rules stays in the draft and judges the next body that sends none',
    clauses: ['FO-2'],
    apply: (app, seams) => {
      const drafts = new Map<string, number>();
      all(
        step('schedule', (own) => (u) => {
          const draft = sent(u).frequency === undefined ? drafts.get(keyOf(u.account, u.check.id)) : undefined;
          return draft === undefined ? own(u) : { ...own(u), frequency: draft };
        }),
        step('problems', (own) => (u) => {
          const problems = own(u);
          const key = keyOf(u.account, u.check.id);
          const frequency = sent(u).frequency;
          if (!u.invalid && problems.length && typeof frequency === 'number') drafts.set(key, frequency);
          else if (!u.invalid && !problems.length) drafts.delete(key);
          return problems;
        }),
      )(app, seams);
    },
  },
  // The body applied to a draft key by key, the offset judged by its setter against the draft's frequency so far.
  {
    name: 'ind8-fo-offset-before-frequency-key',
    what: 'the offset is judged against the frequency as of its place in the body: sent before frequency, the stored frequency',
    list: 'independent-8',
    clauses: ['FO-1', 'FO-2', 'FO-3'],
    apply: offsetBeforeFrequency,
  },
  {
    name: 'fo-key-order',
    what: 'an offset sent before the frequency in the body is judged against the stored frequency',
    clauses: ['FO-2', 'FO-3'],
    apply: offsetBeforeFrequency,
  },
];

/** The other rules of an update: its description, its runtime, and what it changes. */
const UPDATE_RULES: NamedFault[] = [
  // The length counted in code points before anyone asked whether there is a description (null blows up).
  {
    name: 'ind8-cu-description-null-500',
    what: 'description counted with [...description].length before the null check: description null answers 500',
    list: 'independent-8',
    clauses: ['CU-2'],
    apply: problem(
      (b) =>
        Object.hasOwn(b, 'description') && [...(b.description as string)].length > DESCRIPTION_MAX
          ? `description: at most ${DESCRIPTION_MAX} characters`
          : null,
      true,
    ),
  },
  // Measured as the database column counts it, in UTF-8 bytes.
  {
    name: 'ind-cu-description-bytes',
    what: 'description length counted in UTF-8 bytes: 500 non-ASCII characters rejected',
    list: 'independent',
    clauses: ['CU-2'],
    apply: problem(
      (b) =>
        typeof b.description === 'string' && Buffer.byteLength(b.description) > DESCRIPTION_MAX ? `description: at most ${DESCRIPTION_MAX} characters` : null,
      true,
    ),
  },
  // A browser check's body validated by the browser schema, whose description has no maxLength.
  {
    name: 'ind9-cu-browser-description-unbounded',
    what: 'browser checks are validated by the browser schema, whose description has no maxLength: 501 characters accepted there',
    list: 'independent-9',
    clauses: ['CU-2'],
    apply: step('problems', (own) => (u) => {
      const unbounded =
        u.check.checkType === 'BROWSER' &&
        u.invalid?.in === 'body' &&
        objectBody(u.body) &&
        typeof u.body.description === 'string' &&
        u.invalid.errors.every((e) => e.instancePath === '/description');
      return own(unbounded ? { ...u, invalid: undefined } : u);
    }),
  },
  {
    name: 'ind6-cu-removed-runtime-refused',
    what: 'runtimeId of a REMOVED runtime (2023.02, 2022.10) refused, though the document accepts it',
    list: 'independent-6',
    clauses: ['CU-5', 'CU-1'],
    apply: problem((b) => (typeof b.runtimeId === 'string' && REMOVED_RUNTIMES.includes(b.runtimeId) ? `runtimeId: runtime ${b.runtimeId} is removed` : null)),
  },
  // A check on the newest runtime pinned there.
  {
    name: 'cu-runtime-pinned-newest',
    what: 'a check on the newest runtime cannot be moved to an older one',
    clauses: ['CU-9'],
    apply: problem((b, u) =>
      u.check.runtimeId === NEWEST_RUNTIME && typeof b.runtimeId === 'string' && b.runtimeId !== NEWEST_RUNTIME
        ? `runtimeId: a check on ${NEWEST_RUNTIME} stays there`
        : null,
    ),
  },
  // "A check only moves to newer runtimes", enforced on every update.
  {
    name: 'ind9-cu-runtime-no-downgrade',
    what: 'runtimeId may not go back to an older runtime: after 2026.04, 2025.04 is refused',
    list: 'independent-9',
    clauses: ['CU-5', 'CU-9'],
    apply: problem((b, u) =>
      typeof b.runtimeId === 'string' && typeof u.check.runtimeId === 'string' && b.runtimeId < u.check.runtimeId
        ? `runtimeId: cannot go back from ${u.check.runtimeId} to ${b.runtimeId}`
        : null,
    ),
  },
  // The query only matters for new checks, so it is judged after the write.
  {
    name: 'ind6-cu-query-checked-after-write',
    what: 'an invalid autoAssignAlerts is refused (400) only after a valid body was stored',
    list: 'independent-6',
    clauses: ['CU-7'],
    apply: all(
      step('problems', (own) => (u) => own(u.invalid?.in === 'querystring' ? { ...u, invalid: undefined } : u)),
      step('save', (own) => async (u, updated) => {
        await own(u, updated);
        if (u.invalid?.in === 'querystring') throw apiError('INVALID_QUERY', u.invalid.message);
      }),
    ),
  },
];

/** The table rows of the update (crash, then accept, then refuse, as they were judged), and an update that changes nothing. */
const TABLES: OutsideFault[] = [
  {
    kind: 'crash',
    clauses: ['CU-1', 'CU-2', 'CU-3', 'CU-4', 'CU-5', 'CU-6', 'FO-1', 'FO-2', 'FO-3'],
    apply: (rows) => table('crash', rows),
  } satisfies KindFault,
  {
    kind: 'accept',
    clauses: ['CU-2', 'CU-3', 'CU-4', 'CU-5', 'CU-6', 'FO-1', 'FO-2', 'FO-3', 'FO-4', 'FO-5'],
    apply: (rows) => table('accept', rows),
  } satisfies KindFault,
  {
    kind: 'refuse',
    clauses: ['CU-1', 'CU-2', 'CU-3', 'CU-4', 'CU-5', 'CU-6', 'FO-1', 'FO-2', 'FO-3'],
    apply: (rows) => table('refuse', rows),
  } satisfies KindFault,
  // An update that would change nothing refused as a mistake of the client.
  {
    name: 'cu-no-op-refused',
    what: 'an update that would change nothing is refused (400)',
    clauses: ['CU-1'],
    apply: step('problems', (own) => (u) => {
      const problems = own(u);
      if (problems.length || u.invalid) return problems;
      const b = sent(u);
      return Object.keys(b).every((k) => JSON.stringify(b[k]) === JSON.stringify(u.check[k])) ? ['the update changes nothing'] : problems;
    }),
  },
];

/** What a refused update leaves behind last; then, validation blowing up as 500. */
const REFUSED: NamedFault[] = [
  // The refusal restores the unit of work's snapshot, which is of the check as first loaded.
  {
    name: 'ind7-cu-rollback-to-seed',
    what: 'a refused update "rolls back" to the check as first loaded, undoing the updates accepted since',
    list: 'independent-7',
    clauses: ['CU-7'],
    apply: (app, seams) => {
      const firstLoaded = new Map<string, Check>();
      all(
        step('read', (own, checks) => (account, id, place) => {
          const check = own(account, id, place);
          if (account && !firstLoaded.has(keyOf(account, id)) && checks.store.get(account, id)) firstLoaded.set(keyOf(account, id), structuredClone(check));
          return check;
        }),
        onDiscard((u, checks) => {
          const snapshot = firstLoaded.get(keyOf(u.account, u.check.id));
          if (snapshot) checks.store.put(u.account, snapshot);
        }),
      )(app, seams);
    },
  },
  // The draft (built to judge the offset after the update) shares the stored arrays, replaced in place.
  {
    name: 'ind9-cu-shallow-copy-arrays',
    what: 'the draft is a shallow copy and arrays are replaced in place: the arrays of a body refused by the offset rules are kept',
    list: 'independent-9',
    clauses: ['CU-7'],
    apply: onDiscard((u, checks) => {
      if (u.invalid) return;
      const b = sent(u);
      writeOver(
        checks,
        u.account,
        u.check,
        valuesOf(
          b,
          UPDATE_PROPERTIES.filter((k) => Array.isArray(b[k])),
        ),
      );
    }),
  },
  // The name and tags of refused bodies left in the check's draft, and saved with its next accepted update.
  {
    name: 'cu-refused-draft-kept',
    // The model of the check: a refused body's carriers seen at any later read, and an accepted update repeated.
    what: "the name and tags of a refused body stay in the check's draft and are saved with its next accepted update",
    clauses: ['CU-7'],
    apply: (app, seams) => {
      const drafts = new Map<string, Record<string, unknown>>();
      all(
        onDiscard((u) => {
          const drafted = valuesOf(u.body, ['name', 'tags']);
          const key = keyOf(u.account, u.check.id);
          if (drafted) drafts.set(key, { ...drafts.get(key), ...drafted });
        }),
        step('merge', (own) => (u) => {
          const key = keyOf(u.account, u.check.id);
          const draft = drafts.get(key);
          drafts.delete(key);
          return own({ ...u, check: { ...u.check, ...draft } });
        }),
      )(app, seams);
    },
  },
  // The bug that lets validation blow up as 500.
  {
    name: 'cu-500',
    // A 500 where a 4xx belongs fails every rule that has a rejected cell.
    what: 'invalid update bodies answer 500 instead of 400',
    clauses: ['FO-1', 'FO-2', 'FO-3', 'FO-4', 'FO-5', 'CU-2', 'CU-3', 'CU-4', 'CU-5', 'CU-6'],
    // Invalid update bodies answer 500 whoever sends them, the authentication probes' bodies too.
    reach: ['check-update', 'check-read#valid'],
    apply: step('discard', (own) => async (u) => {
      await own(u);
      throw new ApiError('INTERNAL', 500, 'Internal server error');
    }),
  },
];

/** How the check is merged, stored and read back. */
const MERGED_AND_STORED: NamedFault[] = [
  // Null values in the body skipped, so a cleared field keeps its old value.
  {
    name: 'cu-null-ignored',
    // A null the update answers 2xx to is not stored: the null cells (description, groupOrder) do not

    // read back (CU-1), and restoring a field that was null leaves it changed (CU-9). The tests after the

    // first failure run in a new worker, which keeps the run's own snapshot: no other clause fails.
    what: 'null values in an update are skipped, so a cleared field keeps its old value',
    clauses: ['CU-1', 'CU-9'],
    apply: step('merge', (own) => (u) => own({ ...u, body: Object.fromEntries(Object.entries(sent(u)).filter(([, v]) => v !== null)) })),
  },
  // The body merged into the check the way lodash's merge does, arrays by index.
  {
    name: 'ind8-cu-deep-merge-arrays',
    what: 'the update is deep-merged into the check (lodash merge): arrays merge by index, so locations [a] over [b, c] is [a, c]',
    list: 'independent-8',
    clauses: ['CU-1'],
    apply: step('merge', (own) => (u) => {
      const merged = own(u);
      const b = sent(u);
      for (const k of UPDATE_PROPERTIES) if (Object.hasOwn(b, k)) (merged as Record<string, unknown>)[k] = deepMerge(u.check[k], b[k]);
      return merged;
    }),
  },
  // The answer with the new values, nothing stored.
  { name: 'cu-not-persisted', what: 'update answers 200 with the new values but stores nothing', clauses: ['CU-1'], apply: step('save', () => () => {}) },
  // The row goes through a 3-byte utf8 column; the answer is built from the object in memory.
  {
    name: 'ind9-cu-utf8mb3-astral',
    what: 'strings are stored in a 3-byte utf8 column: characters outside the BMP (emoji) read back as "?" (the update answer shows them)',
    list: 'independent-9',
    clauses: ['CU-1'],
    apply: step('save', (own) => (u, updated) => own(u, throughUtf8mb3(updated) as Check)),
  },
  // The name's writer strips what the column cannot hold.
  {
    name: 'cu-astral-dropped',
    what: 'names are stored without their characters outside the Basic Multilingual Plane (the answer shows them)',
    clauses: ['CU-1'],
    apply: step('save', (own) => (u, updated) => own(u, { ...updated, name: throughUtf8mb3(updated.name, '') as string })),
  },
  // The description goes into a VARCHAR(255) column that cuts it without an error; the answer shows what was sent.
  {
    name: 'cu-description-cut-255',
    // A value overwritten before any read showed it stored: each is read before the next body overwrites it.
    what: 'descriptions are stored cut to 255 characters (the answer shows them whole)',
    clauses: ['CU-1'],
    apply: step(
      'save',
      (own) => (u, updated) => own(u, typeof updated.description === 'string' ? { ...updated, description: updated.description.slice(0, 255) } : updated),
    ),
  },
  // The catalogue asked (asynchronously) between the read and the write, with no lock.
  {
    name: 'ind8-cu-concurrent-lost-update',
    what: 'the update awaits the catalogue between reading and writing the check, unlocked: of two concurrent updates one is lost',
    list: 'independent-8',
    clauses: ['CU-1'],
    apply: lostUpdate,
  },
  {
    name: 'cu-lost-update',
    what: 'the update reads the check, waits, then writes it whole: of two updates at once, one is lost',
    clauses: ['CU-1'],
    apply: lostUpdate,
  },
  // A read-through cache in front of the store, which the update does not invalidate.
  {
    name: 'ind7-cu-stale-read-cache',
    what: 'GET /v1/checks/:id is cached for 30 s and the update does not invalidate it: reads show the old values',
    list: 'independent-7',
    clauses: ['CU-1'],
    apply: (app, seams) => {
      const cache = new Map<string, { at: number; check: Check }>();
      step('read', (own) => (account, id, place) => {
        if (place !== 'check-read') return own(account, id, place);
        const cached = cache.get(keyOf(account, id));
        if (cached && Date.now() - cached.at < READ_CACHE_MS) return cached.check;
        const check = own(account, id, place);
        cache.set(keyOf(account, id), { at: Date.now(), check });
        return check;
      })(app, seams);
    },
  },
];

/** Ids the account has not got. */
const UNKNOWN_IDS: OutsideFault[] = [
  { kind: 'unknown-check', clauses: ['CU-8', 'ERR-1'], apply: unknownCheck } satisfies KindFault,
  {
    name: 'cu-unknown-id-200',
    what: 'unknown well-formed check id answers 200 with a made-up check',
    clauses: ['CU-8'],
    apply: step('unknownId', (own) => (id, place) => (GUID.test(id) ? madeUp(id) : own(id, place))),
  },
  // PUT read as "create or replace", so an unknown GUID starts a new check.
  {
    name: 'ind6-cu-put-upserts',
    what: 'PUT /v1/checks/:id on an unknown GUID creates the check (200) instead of 404',
    list: 'independent-6',
    clauses: ['CU-8'],
    reach: ['check-update#unknown', 'check-update#valid', 'check-read#valid'],
    apply: step('unknownId', (own) => (id, place) => (place === 'check-update' && GUID.test(id) ? madeUp(id) : own(id, place))),
  },
  {
    name: 'ind7-cu-cross-account-id',
    what: "checks looked up by id alone: another account's check is read and updated (200), not 404",
    list: 'independent-7',
    files: [TEST_FILES.checkUpdate, TEST_FILES.auth],
    clauses: ['CU-8'],
    apply: unknownCheck([{ kind: 'unknown-check', place: 'any', idShape: 'foreign', answer: 'found' }]),
  },
  // The lookup's 404 set on the reply, then the first collected problem (the body's) rendered as its body.
  {
    name: 'ind9-err-two-problems-status',
    what: 'an invalid body to an unknown check id is answered HTTP 404 with the validation error\'s body (statusCode 400, "Bad Request")',
    list: 'independent-9',
    files: [TEST_FILES.errors, TEST_FILES.checkUpdate],
    clauses: ['ERR-4'],
    reach: ['alone'],
    apply: beforeHandler((_id, message) => ({ status: 404, body: errorBody(400, `Invalid request body: ${message}`) })),
  },
  // The body's 400 as the status, the lookup's not-found error as the body.
  {
    name: 'err-two-problems-404-body',
    what: 'an invalid body to an unknown check id is answered 400 with the not-found body (statusCode 404)',
    clauses: ['ERR-4'],
    reach: ['alone'],
    apply: beforeHandler((id) => ({ status: 400, body: errorBody(404, `Check ${id} not found`) })),
  },
];

/**
 * In the order the service took them, since a record's hooks run, and its step wraps the others', in the
 * order the records are applied: the body's parsers first; the refused update's stores in the order the
 * refusal made them (before the route's answers to unknown ids, as the handler did the apply-before
 * refusal first); each problem before the table rows judge the problems found; the rest after.
 */
export const CHECK_FAULTS: OutsideFault[] = reaching(
  ['check-update#valid', 'check-read#valid'],
  [...BODIES, ...BEFORE_VALIDATION, ...REFUSED_FIRST, ...UNKNOWN_IDS, ...SCHEMA, ...OFFSET_RULES, ...UPDATE_RULES, ...TABLES, ...REFUSED, ...MERGED_AND_STORED],
);
