/**
 * The runtime faults, applied from outside the service through the seams of its runtimes part
 * (reference/service/runtimes/seams.ts): the catalogue, the lookup of an id, the view of a runtime, the
 * routes' own limits and the media type; and, for what happens around the lookup (the id as a router
 * reads it, a crash, a refusal, a cache), a preHandler hook on the runtime route, after authentication and
 * the limiter as the handler is. The order of the steps is the handler's order when they were branches of
 * it: the id, the crashes and the refusal, the unknown ids' answers, then the caches; the view's bends
 * are applied in this array's order too. The lookup itself stays pure (it may be asked more than once).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Faults } from '../catalogue/fault-set';
import { MISSING } from '../catalogue/fault-kinds';
import { apiError } from '../../../reference/service/errors/catalogue';
import { RUNTIMES, type Runtime } from '../../../reference/service/runtimes/data';
import { idShape, rawLastSegment } from './runtime-id-shape';
import { RUNTIME_LIST, RUNTIME_ROUTE, type RuntimeSeams } from '../../../reference/service/runtimes/seams';
import type { KindFault, NamedFault, OutsideFault, Seam } from './seams';
import { TEST_FILES } from '../../../support/run/test-files';
import { reaching } from './reaching';

type View = Record<string, unknown>;

/** A change to the runtimes part's seams. */
const runtimes =
  (edit: (s: RuntimeSeams) => void): Seam =>
  (_app, seams) =>
    edit(seams.runtimes);

/** The view of a runtime bent after the service (and the bends applied before) made it. */
const view = (bend: (out: View, rt: Runtime) => void): Seam =>
  runtimes((s) => {
    const made = s.present;
    s.present = (rt) => {
      const out = made(rt);
      bend(out, rt);
      return out;
    };
  });

/** The lookup of an id replaced by one made from it. */
const lookup = (wrap: (find: RuntimeSeams['find'], s: RuntimeSeams) => RuntimeSeams['find']): Seam =>
  runtimes((s) => {
    s.find = wrap(s.find, s);
  });

const isRead = (req: FastifyRequest) => req.routeOptions.url === RUNTIME_ROUTE && (req.method === 'GET' || req.method === 'HEAD');
const idOf = (req: FastifyRequest) => (req.params as { id: string }).id;

/** The body of a runtime read bent by what its request asked, after the service made it. */
const servedFor =
  (bend: (out: View, req: FastifyRequest) => void): Seam =>
  (app) => {
    app.addHook('onSend', async (req, reply, payload) => {
      if (!isRead(req) || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const out = JSON.parse(payload) as View;
      bend(out, req);
      return JSON.stringify(out);
    });
  };

/** A step before the runtime route's handler (after authentication, the limiter and the id's validation). */
const beforeRead =
  (step: (req: FastifyRequest, reply: FastifyReply, s: RuntimeSeams) => Promise<unknown> | void): Seam =>
  (app, seams) => {
    app.addHook('preHandler', async (req, reply) => (isRead(req) ? step(req, reply, seams.runtimes) : undefined));
  };

/** The same, for a request whose id finds a runtime. */
const beforeFound = (step: (rt: Runtime, reply: FastifyReply, s: RuntimeSeams) => Promise<unknown> | void): Seam =>
  beforeRead((req, reply, s) => {
    const rt = s.find(idOf(req));
    return rt ? step(rt, reply, s) : undefined;
  });

const send = (reply: FastifyReply, s: RuntimeSeams, body: string) => reply.type(s.mediaType).send(body);
const crash = (message: string) => new Error(message);
/** How long a catalogue read takes, for the faults whose requests overlap while one is in flight. */
const CATALOGUE_READ_MS = 10;
const later = <T>(value: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(value()), CATALOGUE_READ_MS));

/** An end-of-life date (MM/DD/YYYY) as numbers. */
const mdy = (date: string) => date.split('/').map(Number);
const two = (n: number) => String(n).padStart(2, '0');

const VIEW: NamedFault[] = [
  {
    name: 'rt-name-mismatch',
    what: 'name of 2024.09 is "2024.9"',
    clauses: ['RT-2'],
    apply: view((out, rt) => rt.name === '2024.09' && (out.name = '2024.9')),
  },
  {
    name: 'rt-node-no-v',
    what: 'nodeJsVersion without the leading v',
    files: [TEST_FILES.runtime],
    clauses: ['RT-3', 'SPEC-9'],
    apply: view((out, rt) => (out.nodeJsVersion = rt.nodeJsVersion.replace(/^v/, ''))),
  },
  // The presenter writes the description's default into the catalogue's own row instead of its copy: the next read shows another value.
  {
    name: 'rt-view-changes-row',
    // Found by reading each runtime twice: a runtime is fixed.
    what: "serving a runtime changes the catalogue's own row (its description grows with every read)",
    clauses: ['RT-1'],
    apply: view((_out, rt) => ((rt as { description?: string }).description = `${rt.description ?? 'Runtime'} (served)`)),
  },
  {
    name: 'rt-multistep-string',
    what: 'multiStepSupport is the string "true"/"false"',
    clauses: ['RT-4'],
    apply: view((out, rt) => (out.multiStepSupport = String(rt.multiStepSupport))),
  },
  {
    name: 'rt-stage-lowercase',
    what: 'stage in lower case ("stable")',
    clauses: ['RT-5'],
    apply: view((out, rt) => rt.stage && (out.stage = rt.stage.toLowerCase())),
  },
  {
    name: 'rt-eol-iso',
    what: 'runtimeEndOfLife written as YYYY-MM-DD',
    clauses: ['RT-6'],
    apply: view((out, rt) => {
      if (!rt.runtimeEndOfLife) return;
      const [m, d, y] = rt.runtimeEndOfLife.split('/');
      out.runtimeEndOfLife = `${y}-${m}-${d}`;
    }),
  },
  {
    name: 'rt-eol-invalid-date',
    what: 'runtimeEndOfLife is "02/30/2025"',
    clauses: ['RT-6'],
    apply: view((out, rt) => rt.runtimeEndOfLife && (out.runtimeEndOfLife = '02/30/2025')),
  },
  // One date typed day first by hand.
  {
    name: 'ind-rt-eol-day-first',
    what: 'runtimeEndOfLife of 2023.09 is written day first: "31/12/2026"',
    list: 'independent',
    clauses: ['RT-6'],
    apply: view((out, rt) => rt.name === '2023.09' && (out.runtimeEndOfLife = '31/12/2026')),
  },
  // The packages of REMOVED runtimes were purged from the registry table.
  {
    name: 'ind-rt-removed-no-deps',
    what: 'REMOVED runtimes (2023.02, 2022.10) have dependencies {}',
    list: 'independent',
    clauses: ['RT-7'],
    apply: view((out, rt) => rt.stage === 'REMOVED' && (out.dependencies = {})),
  },
  // The last day of February typed for a leap year.
  {
    name: 'ind6-rt-eol-leap',
    what: 'runtimeEndOfLife of 2022.10 is "02/29/2026" (no such day)',
    list: 'independent-6',
    clauses: ['RT-6'],
    apply: view((out, rt) => rt.name === '2022.10' && (out.runtimeEndOfLife = '02/29/2026')),
  },
  // The newest runtime's release notes not written yet, a null column.
  {
    name: 'ind6-rt-description-null',
    what: 'description of 2026.04 is null',
    list: 'independent-6',
    clauses: ['RT-8'],
    apply: view((out, rt) => rt.name === '2026.04' && (out.description = null)),
  },
  // The serializer leaves out false values, as Go's omitempty does.
  {
    name: 'ind7-rt-multistep-omitempty',
    what: 'multiStepSupport false is left out of the body (a serializer that omits false values)',
    list: 'independent-7',
    clauses: ['RT-4', 'SPEC-9'],
    apply: view((out) => out.multiStepSupport === false && delete out.multiStepSupport),
  },
  // The date written by toLocaleDateString('en-US'), which does not pad month and day.
  {
    name: 'ind7-rt-eol-locale-unpadded',
    what: 'runtimeEndOfLife written by toLocaleDateString("en-US"): "3/31/2027", not "03/31/2027"',
    list: 'independent-7',
    clauses: ['RT-6'],
    apply: view((out) => {
      if (typeof out.runtimeEndOfLife !== 'string') return;
      const [m, d, y] = out.runtimeEndOfLife.split('/');
      out.runtimeEndOfLife = `${Number(m)}/${Number(d)}/${y}`;
    }),
  },
  // The stage derived at request time, a runtime past its end of life getting a stage of its own.
  {
    name: 'ind8-rt-stage-past-eol-computed',
    what: 'stage computed at request time: a runtime past its runtimeEndOfLife is served with stage "END_OF_LIFE"',
    list: 'independent-8',
    clauses: ['RT-5', 'SPEC-9'],
    apply: view((out, rt) => {
      if (!rt.runtimeEndOfLife) return;
      const [m, d, y] = mdy(rt.runtimeEndOfLife);
      if (Date.UTC(y, m - 1, d + 1) <= Date.now()) out.stage = 'END_OF_LIFE';
    }),
  },
  // The newest runtime's packages listed by the new pipeline, which keeps `npm ls --json`'s shape.
  {
    name: 'ind8-rt-deps-npm-ls-shape',
    what: 'dependencies of 2026.04 (a new packaging pipeline) come in the `npm ls --json` shape: {"name": {"version": "x"}}',
    list: 'independent-8',
    clauses: ['RT-7', 'SPEC-9'],
    apply: view((out, rt) => {
      if (rt.name === '2026.04') out.dependencies = Object.fromEntries(Object.entries(rt.dependencies).map(([name, version]) => [name, { version }]));
    }),
  },
  // The date parsed into a Date and written back with getUTCMonth(), which counts from 0.
  {
    name: 'ind9-rt-eol-zero-based-month',
    what: 'runtimeEndOfLife formatted with getUTCMonth() (0-based) and no +1: 03/31/2027 is served as "02/31/2027"',
    list: 'independent-9',
    clauses: ['RT-6'],
    apply: view((out, rt) => {
      if (!rt.runtimeEndOfLife) return;
      const [m, d, y] = mdy(rt.runtimeEndOfLife);
      const date = new Date(Date.UTC(y, m - 1, d));
      out.runtimeEndOfLife = `${two(date.getUTCMonth())}/${two(date.getUTCDate())}/${date.getUTCFullYear()}`;
    }),
  },
  // The runtimes with an end of life come from the legacy table, whose JSON column the driver returns as text.
  {
    name: 'ind9-rt-deps-double-encoded',
    what: 'dependencies of the runtimes with an end of life (a legacy table with a JSON text column) are a JSON string, not an object',
    list: 'independent-9',
    clauses: ['RT-7', 'SPEC-9'],
    apply: view((out, rt) => rt.runtimeEndOfLife && (out.dependencies = JSON.stringify(out.dependencies))),
  },
  // Before rt-deps-empty, which wins when both are named.
  { name: 'rt-deps-number', what: 'one dependency version is a number', clauses: ['RT-7'], apply: view((out) => ((out.dependencies as View).lodash = 4.17)) },
  { name: 'rt-deps-empty', what: 'dependencies is {}', clauses: ['RT-7'], apply: view((out) => (out.dependencies = {})) },
  { name: 'rt-description-number', what: 'description is the number 2024', clauses: ['RT-8'], apply: view((out) => (out.description = 2024)) },
  // Found at first sight (batch I): the description picked from a table of languages by the first Accept-Language tag, the whole table
  // when it holds none of that tag.
  {
    name: 'rt-description-by-language',
    what: 'description picked by the first Accept-Language tag: for any tag but "en", the whole table {"en": …} (a browser in France, Node\'s fetch sending *)',
    clauses: ['RT-8', 'SPEC-9'],
    apply: servedFor((out, req) => {
      const tag = String(req.headers['accept-language'] ?? 'en')
        .split(/[,;]/)[0]
        .trim();
      if (typeof out.description === 'string' && tag !== 'en') out.description = { en: out.description };
    }),
  },
];

const FIELD: KindFault[] = [
  /** rt-field: one field of every runtime bent, or left out (after every named bend). */
  {
    kind: 'rt-field',
    clauses: ['RT-2', 'RT-3', 'RT-4', 'RT-5', 'RT-6', 'RT-7', 'RT-8'],
    apply: (rows) =>
      view((out) => {
        for (const { field, value } of rows) {
          if (value === MISSING) delete out[field];
          else out[field] = value;
        }
      }),
  },
];

/** ind9-rt-lookup-plain-object: the runtimes by name in an object literal, which inherits Object.prototype's members. */
const byName = (): Record<string, Runtime> => {
  const out: Record<string, Runtime> = {};
  for (const r of RUNTIMES) out[r.name] = r;
  return out;
};

const LOOKUP: NamedFault[] = [
  {
    name: 'rt-missing-version',
    what: 'runtime 2022.10 answers 404',
    clauses: ['RT-1'],
    reach: ['runtime#known', 'runtime#unknown'],
    apply: runtimes((s) => (s.catalogue = s.catalogue.filter((r) => r.name !== '2022.10'))),
  },
  // The lowest name the id begins: "2024.0" finds 2024.02, not 2024.09.
  {
    name: 'rt-prefix-match',
    what: 'a prefix id ("2024.0") answers 200 with the first runtime it prefixes',
    clauses: ['RT-9'],
    reach: ['runtime#unknown'],
    apply: lookup(
      (find, s) => (id) => find(id) ?? (id ? s.catalogue.filter((r) => r.name.startsWith(id)).sort((a, b) => a.name.localeCompare(b.name))[0] : undefined),
    ),
  },
  // The id read as a year and a month number, so "2024.9" is 2024.09.
  {
    name: 'ind6-rt-id-numeric-parse',
    what: 'runtime ids parsed as year and month numbers: "2024.9" answers 200 with runtime 2024.09',
    list: 'independent-6',
    clauses: ['RT-9'],
    reach: ['runtime#known', 'runtime#unknown'],
    apply: lookup((find) => (id) => {
      const numeric = /^(\d{4})\.(\d{1,2})$/.exec(id);
      return find(id) ?? (numeric ? find(`${numeric[1]}.${numeric[2].padStart(2, '0')}`) : undefined);
    }),
  },
  // The lookup written as table[id] without an own-property check: "constructor", "toString", "__proto__" find something.
  {
    name: 'ind9-rt-lookup-plain-object',
    what: 'runtimes looked up in a plain object: ids such as constructor, toString, __proto__ answer 200 with {"dependencies":{}}',
    list: 'independent-9',
    clauses: ['RT-9'],
    apply: lookup(() => {
      const table = byName();
      return (id) => table[id];
    }),
  },
];

/** rt-unknown and rt-id: an unknown id of one shape (or this very id) answered with the newest runtime, or a crash. */
const unknownId = (answerOf: (req: FastifyRequest) => 'found' | 'fail' | undefined): Seam =>
  beforeRead(async (req, reply, s) => {
    if (s.find(idOf(req))) return;
    const answer = answerOf(req);
    if (answer === 'fail') throw crash('runtime lookup failed');
    if (answer === 'found') return send(reply, s, JSON.stringify(s.present(s.catalogue[0])));
  });

const UNKNOWN: KindFault[] = [
  // The exact id first: it answers before its shape does.
  {
    kind: 'rt-id',
    clauses: ['RT-9'],
    apply: (rows) => unknownId((req) => new Faults(rows).unknownRuntimeAnswer(undefined, idOf(req))),
  },
  {
    kind: 'rt-unknown',
    clauses: ['RT-9'],
    apply: (rows) => unknownId((req) => new Faults(rows).unknownRuntimeAnswer(idShape(rawLastSegment(req.raw.url ?? ''), idOf(req)))),
  },
];

/** Before the lookup (their hooks run before those of rt-unknown and rt-id): the id, a crash, a refusal, the id's validation, the media type. */
const AROUND: NamedFault[] = [
  // A ".json" ending read as the format the client asks for, as some routers do: the id every later step sees.
  {
    name: 'ind8-rt-json-suffix-stripped',
    what: 'a trailing ".json" on the runtime id is read as a format suffix: /v1/runtimes/2025.04.json answers 200',
    list: 'independent-8',
    clauses: ['RT-9'],
    apply: beforeRead((req) => {
      const params = req.params as { id: string };
      params.id = params.id.replace(/\.json$/i, '');
    }),
  },
  // A decoder and a length check that blow up instead of answering 404.
  {
    name: 'rt-encoded-slash-500',
    what: 'runtime ids containing %2F answer 500',
    clauses: ['RT-9'],
    reach: ['runtime#unknown'],
    apply: beforeRead((req) => {
      if (/%2f/i.test(req.raw.url ?? '')) throw crash('path decoding failed');
    }),
  },
  {
    name: 'rt-long-id-500',
    what: 'runtime ids over 1,000 characters answer 500',
    clauses: ['RT-9'],
    reach: ['runtime#unknown'],
    apply: beforeRead((req) => {
      if (idOf(req).length > 1000) throw crash('runtime id overflow');
    }),
  },
  // The id goes into an ASCII-only cache key, which throws on anything else.
  {
    name: 'ind-rt-non-ascii-500',
    what: 'runtime ids with non-ASCII characters answer 500',
    list: 'independent',
    clauses: ['RT-9'],
    reach: ['runtime#unknown'],
    apply: beforeRead((req) => {
      if ([...idOf(req)].some((ch) => ch.charCodeAt(0) > 0x7f)) throw crash('cache key: not ASCII');
    }),
  },
  // The id parameter validated by a pattern, so ids of another form are a 400 validation error.
  {
    name: 'ind7-rt-malformed-id-400',
    what: 'runtime ids not of the form NNNN.NN are refused 400 by a route parameter pattern, not 404',
    list: 'independent-7',
    clauses: ['RT-9'],
    apply: (app) => {
      app.addHook('onRoute', (route) => {
        if (route.url === RUNTIME_ROUTE && (route.method === 'GET' || route.method === 'HEAD'))
          route.schema = { ...route.schema, params: { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]{4}\\.[0-9]{2}$' } } } };
      });
    },
  },
  // The content negotiation names the one media type it serves and refuses every other Accept.
  {
    name: 'rt-accept-strict',
    what: 'the runtime operation answers 406 unless Accept is exactly application/json',
    clauses: ['RT-1'],
    apply: beforeRead(async (req, reply, s) => {
      if (req.headers.accept !== 'application/json')
        return reply
          .code(406)
          .type(s.mediaType)
          .send(JSON.stringify({ statusCode: 406, error: 'Not Acceptable', message: 'only application/json' }));
    }),
  },
  {
    name: 'rt-content-type-text',
    what: 'runtime 200 is served as text/plain',
    clauses: ['RT-1'],
    apply: runtimes((s) => (s.mediaType = 'text/plain; charset=utf-8')),
  },
];

/** How a found runtime is served: from a cache, or a read shared with other requests. */
const SERVING: NamedFault[] = [
  // A read-through cache whose fill is not awaited: a runtime's first read misses, and the miss reads as "no such runtime".
  {
    name: 'ind7-rt-cache-miss-404',
    what: 'read-through runtime cache: the first request for each runtime answers 404 while the cache is filled',
    list: 'independent-7',
    clauses: ['RT-1'],
    apply: (app, seams) => {
      const cached = new Set<string>();
      beforeFound((rt) => {
        if (cached.has(rt.name)) return;
        cached.add(rt.name);
        throw apiError('RUNTIME_NOT_FOUND');
      })(app, seams);
    },
  },
  // The cache key cut at the dot ("2024"), so the runtimes of one year share an entry.
  {
    name: 'ind8-rt-cache-key-year',
    what: 'the runtime response cache is keyed by the year: after 2024.02 was read, 2024.09 answers with 2024.02',
    list: 'independent-8',
    clauses: ['RT-2'],
    apply: (app, seams) => {
      const byYear = new Map<string, string>();
      beforeFound(async (rt, reply, s) => {
        const key = rt.name.split('.')[0];
        if (!byYear.has(key)) byYear.set(key, JSON.stringify(s.present(rt)));
        return send(reply, s, byYear.get(key)!);
      })(app, seams);
    },
  },
  // The found runtime kept in the route's one variable across the catalogue's round trip: reads in flight together all get the last one.
  {
    name: 'rt-concurrent-last-wins',
    what: 'runtime reads in flight at the same time are all answered with the runtime the last of them asked for',
    clauses: ['RT-2'],
    apply: (app, seams) => {
      let serving: Runtime;
      beforeFound(async (rt, reply, s) => {
        serving = rt;
        return send(reply, s, await later(() => JSON.stringify(s.present(serving))));
      })(app, seams);
    },
  },
  // Concurrent reads coalesced on the read in flight, keyed by the route instead of the id.
  {
    name: 'ind9-rt-singleflight-route-key',
    what: "concurrent runtime reads are coalesced on one in-flight catalogue read keyed by the route: they all get the first id's runtime",
    list: 'independent-9',
    clauses: ['RT-2'],
    apply: (app, seams) => {
      let inflight: Promise<string> | null = null;
      beforeFound(async (rt, reply, s) => {
        if (inflight) return send(reply, s, await inflight);
        inflight = later(() => JSON.stringify(s.present(rt)));
        try {
          return send(reply, s, await inflight);
        } finally {
          inflight = null;
        }
      })(app, seams);
    },
  },
];

const LIMITS: NamedFault[] = [
  // The list's limit of its own left out of the route's config.
  {
    name: 'rl-custom-ignored',
    what: 'the 20/10 s limit of GET /v1/runtimes is not applied',
    clauses: ['RL-4'],
    reach: ['*#limit'],
    apply: runtimes((s) => wrapLimit(s, (limit, url) => (url === RUNTIME_LIST ? undefined : limit))),
  },
  // The route's limit one too high (21 requests served per 10 s).
  {
    name: 'ind-rl-custom-off-by-one',
    what: 'GET /v1/runtimes serves 21 requests per 10 s instead of 20',
    list: 'independent',
    clauses: ['RL-4'],
    reach: ['alone'],
    apply: runtimes((s) => wrapLimit(s, (limit, url) => (limit && url === RUNTIME_LIST ? { ...limit, max: limit.max + 1 } : limit))),
  },
  // The list's limit attached to every route under /v1/runtimes.
  {
    name: 'ind6-rl-custom-prefix',
    what: 'the 20 per 10 s limit of GET /v1/runtimes also applies to GET /v1/runtimes/:id (prefix match)',
    list: 'independent-6',
    clauses: ['RL-1'],
    reach: ['alone'],
    apply: runtimes((s) => {
      const own = s.ownLimit;
      s.ownLimit = (url) => own(url) ?? (url.startsWith(RUNTIME_LIST) ? own(RUNTIME_LIST) : undefined);
    }),
  },
];

function wrapLimit(s: RuntimeSeams, bend: (limit: ReturnType<RuntimeSeams['ownLimit']>, url: string) => ReturnType<RuntimeSeams['ownLimit']>): void {
  const own = s.ownLimit;
  s.ownLimit = (url) => bend(own(url), url);
}

export const RUNTIME_FAULTS: OutsideFault[] = reaching(['runtime#known'], [...LOOKUP, ...VIEW, ...FIELD, ...AROUND, ...UNKNOWN, ...SERVING, ...LIMITS]);
