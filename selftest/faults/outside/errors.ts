/**
 * Error body faults applied from outside the service, through its one seam of the error answer
 * (`seams.errors.answer`: the status, the body the service built, and the answer as it is sent). A record
 * wraps the rendering it finds: it may change the body on its way in, and the answer on its way out.
 *
 * The order of the records is the order of the bends: the first record applied is innermost, so its body
 * edits come last and its answer edits first. Hence: the errbody mutations (innermost), then the named
 * edits of the body (the template last applied, so that it is spread first), then the edits of the answer
 * as sent (the spliced text, the 415's text, the 401's type, the status line).
 */
import type { FastifyRequest } from 'fastify';
import type { ErrorAnswer, ErrorSeams } from '../../../reference/service/errors/seams';
import { placeOf } from '../../../reference/service/place';
import { Faults, ALIASES } from '../catalogue/fault-set';
import type { ErrorMutation, FaultKind } from '../catalogue/fault-kinds';
import type { KindFault, NamedFault, OutsideFault, Seam } from './seams';
import { TEST_FILES } from '../../../support/run/test-files';

type Answer = ErrorSeams['answer'];
type Body = Record<string, unknown>;
type ErrbodyRow = Extract<FaultKind, { kind: 'errbody' }>;

const TEXT_TYPE = 'text/plain; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

/** The seam of the error answer: the service's rendering (or the records' before this one) wrapped. */
const errorAnswer =
  (wrap: (inner: Answer) => Answer): Seam =>
  (_app, seams) => {
    seams.errors.answer = wrap(seams.errors.answer);
  };

/** The body of the errors of this status (and request) edited before it is rendered. */
const editBody = (status: number, edit: (body: Body, req: FastifyRequest) => void, where: (req: FastifyRequest) => boolean = () => true) =>
  errorAnswer((inner) => (req, s, body) => {
    if (s !== status || !where(req)) return inner(req, s, body);
    const out = { ...body };
    edit(out, req);
    return inner(req, s, out);
  });

/** The answer to the errors of this status edited as it is sent (the body the service built at hand). */
const editAnswer = (status: number, edit: (answer: ErrorAnswer, req: FastifyRequest, body: Readonly<Body>) => ErrorAnswer) =>
  errorAnswer((inner) => (req, s, body) => {
    const answer = inner(req, s, body);
    return s === status ? edit(answer, req, body) : answer;
  });

/** Whether a path's percent-encoding decodes (to UTF-8). */
const decodes = (url: string) => {
  try {
    decodeURIComponent(url);
    return true;
  } catch {
    return false;
  }
};

const at =
  (...places: Array<ReturnType<typeof placeOf>>) =>
  (req: FastifyRequest) =>
    places.includes(placeOf(req));

// ---- errbody:<place>:<status|any>:<mutation>, and the named faults that are one row of it ----

/** "Not Found" -> "Not found", "Unauthorized" -> "unauthorized": the slip a hand-written phrase makes. */
const misworded = (phrase: string) => (phrase.includes(' ') ? phrase[0] + phrase.slice(1).toLowerCase() : phrase.toLowerCase());

/** A status that is not the response's: 401 says 403 (the classic mix-up), the others a plain 400 (400 says 422). */
const otherStatus = (status: number) => (status === 401 ? 403 : status === 400 ? 422 : 400);

/** An error answer bent by these mutations (the body's fields first, then what is sent). */
function bent(inner: Answer, req: FastifyRequest, status: number, body: Readonly<Body>, mutations: readonly ErrorMutation[]): ErrorAnswer {
  const out: Body = { ...body };
  const has = (m: ErrorMutation) => mutations.includes(m);
  if (has('string-status')) out.statusCode = String(out.statusCode ?? status);
  if (has('status-mismatch')) out.statusCode = otherStatus(status);
  if (has('no-status')) delete out.statusCode;
  if (has('wording') && typeof out.error === 'string') out.error = misworded(out.error);
  if (has('no-error')) delete out.error;
  // The Authorization value, scheme and key, quoted back: what AUTH-7 forbids.
  const authorization = req.headers.authorization;
  if (has('echo-key') && authorization) out.message = `${String(out.message ?? '')} (Authorization: "${authorization}")`;
  if (has('message-number')) out.message = status;
  if (has('attributes-string') && 'attributes' in out) out.attributes = JSON.stringify(out.attributes);
  const answer = inner(req, status, out);
  // A proxy's or framework's own page in place of the API's body (a 413 from a body limit, say).
  if (has('html'))
    return {
      ...answer,
      type: HTML_TYPE,
      payload: `<html><head><title>${status} ${String(out.error ?? '')}</title></head><body><h1>${status}</h1></body></html>`,
    };
  if (has('not-json')) return { ...answer, type: TEXT_TYPE, payload: `${String(out.error ?? status)}: ${String(out.message ?? '')}` };
  return has('text-type') ? { ...answer, type: TEXT_TYPE } : answer;
}

/**
 * The errbody rows of one service: gathered from the kind's record and the named ones', so that one
 * wrapper bends each answer once by all of them (a mutation named twice still applies once).
 */
const errbodyRows = new WeakMap<ErrorSeams, ErrbodyRow[]>();

const errbody =
  (rows: readonly ErrbodyRow[]): Seam =>
  (app, seams) => {
    const known = errbodyRows.get(seams.errors);
    if (known) {
      known.push(...rows);
      return;
    }
    const all = [...rows];
    errbodyRows.set(seams.errors, all);
    errorAnswer((inner) => (req, status, body) => {
      const mutations = new Faults(all).errorMutations(placeOf(req), status);
      return mutations.length ? bent(inner, req, status, body, mutations) : inner(req, status, body);
    })(app, seams);
  };

const ERRBODY: KindFault = { kind: 'errbody', clauses: ['ERR-1', 'ERR-2', 'ERR-3', 'ERR-4', 'AUTH-7', 'SPEC-9'], apply: errbody };

/** A named fault that is one errbody row (selftest/faults/catalogue/fault-set.ts ALIASES). */
const alias = (record: Omit<NamedFault, 'apply'>): NamedFault => ({ ...record, apply: errbody([ALIASES[record.name] as ErrbodyRow]) });

const ALIASED: NamedFault[] = [
  alias({ name: 'auth-echo-key', what: '401 message quotes the key that was sent', clauses: ['AUTH-7'], reach: ['*#401'] }),
  alias({
    name: 'err-404-string-status',
    what: '404 bodies carry statusCode "404" (a string)',
    files: [TEST_FILES.runtime],
    clauses: ['ERR-1', 'ERR-4'],
    reach: ['*#404'],
  }),
  alias({ name: 'err-404-wording', what: '404 bodies say error "Not found"', files: [TEST_FILES.runtime], clauses: ['ERR-1'], reach: ['*#404'] }),
  alias({
    name: 'err-text-content-type',
    what: 'error responses are served as text/plain',
    files: [TEST_FILES.runtime, TEST_FILES.auth],
    clauses: ['ERR-3'],
    reach: ['*#*'],
  }),
  alias({ name: 'err-status-mismatch', what: '401 bodies say statusCode 403', files: [TEST_FILES.auth], clauses: ['ERR-4'], reach: ['*#401'] }),
];

// ---- the named faults of one body or one answer ----

/** Applied innermost first: the body edits of the later ones come earlier (the template is spread before the others set error). */
const BODIES: NamedFault[] = [
  // The runtime module's own "Not Found", copied from the rendered docs with a no-break space.
  {
    name: 'ind9-err-404-nbsp',
    what: '404 of an unknown runtime id says error "Not\\u00a0Found" (a no-break space copied from the rendered docs)',
    list: 'independent-9',
    files: [TEST_FILES.errors, TEST_FILES.runtime, TEST_FILES.spec],
    clauses: ['ERR-1', 'SPEC-9'],
    apply: editBody(404, (b) => (b.error = 'Not\u00a0Found'), at('runtime')),
  },
  // The router's own status kept for a path it cannot decode (a byte that is no UTF-8): 400 where an unknown id must get 404.
  {
    name: 'rt-undecodable-id-400',
    // Found by the ids whose percent-encoding is well formed but no UTF-8.
    what: "runtime ids whose percent-encoding is no UTF-8 answer 400 (the router's status) instead of 404",
    clauses: ['RT-9'],
    reach: ['runtime#unknown'],
    apply: editAnswer(404, (a, req) =>
      req.routeOptions.url === undefined && req.raw.url?.startsWith('/v1/runtimes/') && !decodes(req.raw.url)
        ? { ...a, status: 400, payload: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'URL could not be decoded' }) }
        : a,
    ),
  },
  // The runtime lookup sends its optional detail as null.
  {
    name: 'ind6-err-404-message-null',
    what: '404 of an unknown runtime id carries message null',
    list: 'independent-6',
    files: [TEST_FILES.errors, TEST_FILES.runtime],
    clauses: ['ERR-1'],
    reach: ['runtime#unknown'],
    apply: editBody(404, (b) => (b.message = null), at('runtime')),
  },
  // The body-size error is wrapped by the validation error helper.
  {
    name: 'ind6-err-413-status-400',
    what: '413 (body over 1 MB) carries statusCode 400 in its body',
    list: 'independent-6',
    files: [TEST_FILES.errors, TEST_FILES.checkUpdate],
    clauses: ['ERR-4'],
    reach: ['*#413'],
    apply: editBody(413, (b) => (b.statusCode = 400)),
  },
  // The checks module names its error after its NotFound class.
  {
    name: 'ind-err-check-404-notfound',
    what: '404 for an unknown check id says error "NotFound"',
    list: 'independent',
    files: [TEST_FILES.checkUpdate],
    clauses: ['ERR-1'],
    reach: ['check-read#404', 'check-update#404'],
    apply: editBody(404, (b) => (b.error = 'NotFound'), at('check-read', 'check-update')),
  },
  // The 403 is built by the 401 helper, which writes its own statusCode.
  {
    name: 'ind-err-403-status-401',
    what: '403 bodies say statusCode 401',
    list: 'independent',
    files: [TEST_FILES.auth],
    clauses: ['ERR-4'],
    reach: ['*#403'],
    apply: editBody(403, (b) => (b.statusCode = 401)),
  },
  // The error template each of the service's error helpers share: notFound() spreads it, unauthorized() Object.assign()s into it.
  {
    name: 'ind7-err-404-template-after-401',
    what: 'the 401 helper Object.assign()s into the shared error template: after a 401, 404 bodies say 401 Unauthorized',
    list: 'independent-7',
    files: [TEST_FILES.errors, TEST_FILES.auth, TEST_FILES.runtime],
    clauses: ['ERR-1', 'ERR-4'],
    apply: (app, seams) => {
      const template = { statusCode: 404, error: 'Not Found' };
      errorAnswer((inner) => (req, status, body) => {
        if (status === 401) Object.assign(template, { statusCode: 401, error: 'Unauthorized' });
        return inner(req, status, status === 404 ? { ...body, ...template } : body);
      })(app, seams);
    },
  },
];

/** Applied after the body edits, in the order the answer is bent. */
const ANSWERS: NamedFault[] = [
  // The validator's own details ({statusCode: 422, …}) spliced into the JSON text of a refused update; the last key wins.
  {
    name: 'ind8-err-400-duplicate-status-key',
    what: 'the 400 of a refused update has the validator\'s details spliced into its JSON, a second "statusCode": 422 last',
    list: 'independent-8',
    files: [TEST_FILES.errors, TEST_FILES.checkUpdate],
    clauses: ['ERR-4'],
    apply: editAnswer(400, (a, req, body) =>
      placeOf(req) === 'check-update' && a.payload.endsWith('}')
        ? { ...a, payload: `${a.payload.slice(0, -1)},${JSON.stringify({ statusCode: 422, validation: body.message }).slice(1)}` }
        : a,
    ),
  },
  // The media-type refusal is sent as the parser layer's plain text.
  {
    name: 'ind6-err-415-text',
    what: '415 (body not sent as JSON) answered with a text/plain body',
    list: 'independent-6',
    files: [TEST_FILES.errors, TEST_FILES.checkUpdate],
    clauses: ['ERR-3'],
    reach: ['*#415'],
    apply: editAnswer(415, (_a, _req, body) => ({ status: 415, type: TEXT_TYPE, payload: `Unsupported Media Type: ${String(body.message ?? '')}` })),
  },
  // The auth layer sends its JSON with reply.send(string) and no type.
  {
    name: 'ind-err-401-text-plain',
    what: '401 bodies are JSON text served as text/plain',
    list: 'independent',
    files: [TEST_FILES.auth],
    clauses: ['ERR-3'],
    reach: ['*#401'],
    apply: editAnswer(401, (a) => ({ ...a, type: TEXT_TYPE })),
  },
  /** The ownership layer turns the miss on a check another account holds into 403, by the status line only (the owner asked of the check store). */
  {
    name: 'ind7-err-foreign-check-403-body-404',
    what: 'a check id of another account is answered HTTP 403 with the 404 body (statusCode 404) left in place',
    list: 'independent-7',
    files: [TEST_FILES.errors, TEST_FILES.auth, TEST_FILES.checkUpdate],
    clauses: ['ERR-4'],
    apply: (app, seams) => {
      const foreign = (req: FastifyRequest) => {
        if (req.routeOptions.url !== '/v1/checks/:id') return false;
        const owner = seams.checks.store.ownerOf((req.params as { id: string }).id);
        return owner !== undefined && owner !== req.accountId;
      };
      editAnswer(404, (a, req) => (foreign(req) ? { ...a, status: 403 } : a))(app, seams);
    },
  },
];

export const ERRORS_FAULTS: OutsideFault[] = [ERRBODY, ...ALIASED, ...BODIES, ...ANSWERS];
