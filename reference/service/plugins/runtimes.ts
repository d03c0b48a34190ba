// GET /v1/runtimes and GET /v1/runtimes/:id.
import type { RuntimeSeams } from '../runtimes/seams';
import type { FastifyInstance } from 'fastify';
import type { Faults } from '../../faults';
import { apiError } from '../errors/catalogue';
import { findRuntime, present, visibleRuntimes } from '../runtimes/view';
import { idShape, rawLastSegment } from '../runtimes/id-shape';
import type { Runtime } from '../runtimes/data';

/** The custom limit of the list route, as its spec description states it. */
export const RUNTIME_LIST_LIMIT = { max: 20, timeWindow: 10_000 } as const;
/** ind9-rt-singleflight-route-key, rt-concurrent-last-wins: how long a catalogue read takes. */
const CATALOGUE_READ_MS = 10;

export default async function runtimesPlugin(app: FastifyInstance, opts: { faults: Faults; seams: RuntimeSeams }) {
  const { faults } = opts;
  const json = faults.has('rt-content-type-text') ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';

  app.get(
    '/v1/runtimes',
    {
      // ind-rl-custom-off-by-one: the route's limit is one too high (21 requests served per 10 s).
      config: faults.has('rl-custom-ignored')
        ? {}
        : { rateLimit: { ...RUNTIME_LIST_LIMIT, max: RUNTIME_LIST_LIMIT.max + (faults.has('ind-rl-custom-off-by-one') ? 1 : 0) } },
    },
    async (_req, reply) => reply.type(json).send(JSON.stringify(visibleRuntimes(faults).map((r) => present(r, faults)))),
  );

  // ind6-rl-custom-prefix: the list's limit attached to every route under /v1/runtimes.
  const oneLimit = faults.has('ind6-rl-custom-prefix') ? { config: { rateLimit: { ...RUNTIME_LIST_LIMIT } } } : {};
  // ind7-rt-malformed-id-400: the id parameter validated by a pattern, so ids of another form are a 400 validation error.
  const idPattern = faults.has('ind7-rt-malformed-id-400')
    ? { schema: { params: { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]{4}\\.[0-9]{2}$' } } } } }
    : {};
  /** ind7-rt-cache-miss-404: the runtimes the read-through cache holds; a miss starts the fill and is answered at once. */
  const cached = new Set<string>();
  /** ind8-rt-cache-key-year: the served bodies, keyed by the part of the name before the dot. */
  const byYear = new Map<string, string>();
  /** ind9-rt-singleflight-route-key: the one catalogue read in flight, shared by every request of the route that arrives meanwhile. */
  let inflight: Promise<string> | null = null;
  /** rt-concurrent-last-wins: the runtime the route is serving, one variable for every request. */
  let serving: Runtime | undefined;
  app.get<{ Params: { id: string } }>('/v1/runtimes/:id', { ...oneLimit, ...idPattern }, async (req, reply) => {
    // ind8-rt-json-suffix-stripped: a ".json" ending read as the format the client asks for, as some routers do.
    const id = faults.has('ind8-rt-json-suffix-stripped') ? req.params.id.replace(/\.json$/i, '') : req.params.id;
    // The two 500 faults: a decoder and a length check that blow up instead of answering 404.
    if (faults.has('rt-encoded-slash-500') && /%2f/i.test(req.raw.url ?? '')) throw new Error('path decoding failed');
    if (faults.has('rt-long-id-500') && id.length > 1000) throw new Error('runtime id overflow');
    // ind-rt-non-ascii-500: the id goes into an ASCII-only cache key, which throws on anything else.
    if (faults.has('ind-rt-non-ascii-500') && [...id].some((ch) => ch.charCodeAt(0) > 0x7f)) throw new Error('cache key: not ASCII');
    // rt-accept-strict: the content negotiation names the one media type it serves and refuses every other Accept.
    if (faults.has('rt-accept-strict') && req.headers.accept !== 'application/json')
      return reply
        .code(406)
        .type(json)
        .send(JSON.stringify({ statusCode: 406, error: 'Not Acceptable', message: 'only application/json' }));
    const rt = findRuntime(id, faults);
    if (!rt) {
      // rt-unknown: the ids of one shape are found (the newest runtime) or blow up.
      const answer = faults.unknownRuntimeAnswer(idShape(rawLastSegment(req.raw.url ?? ''), id), id);
      if (answer === 'fail') throw new Error('runtime lookup failed');
      if (answer === 'found') return reply.type(json).send(JSON.stringify(present(visibleRuntimes(faults)[0], faults)));
      throw apiError('RUNTIME_NOT_FOUND');
    }
    // ind7-rt-cache-miss-404: the fill is not awaited, so the miss reads as "no such runtime".
    if (faults.has('ind7-rt-cache-miss-404') && !cached.has(rt.name)) {
      cached.add(rt.name);
      throw apiError('RUNTIME_NOT_FOUND');
    }
    // ind8-rt-cache-key-year: the cache key cut at the dot ("2024"), so the runtimes of one year share an entry.
    if (faults.has('ind8-rt-cache-key-year')) {
      const key = rt.name.split('.')[0];
      if (!byYear.has(key)) byYear.set(key, JSON.stringify(present(rt, faults)));
      return reply.type(json).send(byYear.get(key));
    }
    // rt-concurrent-last-wins: the found runtime kept in the route's variable across the catalogue's round trip.
    if (faults.has('rt-concurrent-last-wins')) {
      serving = rt;
      await new Promise((resolve) => setTimeout(resolve, CATALOGUE_READ_MS));
      return reply.type(json).send(JSON.stringify(present(serving, faults)));
    }
    // ind9-rt-singleflight-route-key: concurrent reads coalesced on the in-flight read, keyed by the route instead of the id.
    if (faults.has('ind9-rt-singleflight-route-key')) {
      if (inflight) return reply.type(json).send(await inflight);
      const found = rt;
      inflight = new Promise<string>((resolve) => setTimeout(() => resolve(JSON.stringify(present(found, faults))), CATALOGUE_READ_MS));
      try {
        return reply.type(json).send(await inflight);
      } finally {
        inflight = null;
      }
    }
    return reply.type(json).send(JSON.stringify(present(rt, faults)));
  });
}
