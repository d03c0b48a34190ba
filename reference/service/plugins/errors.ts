// Every error leaves through sendError: one body shape, one place where the errbody faults bend it.
import type { ErrorSeams } from '../errors/seams';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Faults } from '../../faults';
import { ApiError, errorBody, apiError, reasonPhrase } from '../errors/catalogue';
import { renderError } from '../errors/bent-error';
import { placeOf } from '../place';
import { RateLimitError } from '../rate-limit/too-many-requests';

/** ind7-err-404-template-after-401: the error template each service's error helpers share (and the 401 helper writes into). */
const templates = new WeakMap<Faults, { statusCode: number; error: string }>();
/** ind7-err-foreign-check-403-body-404: requests for a check that another account holds (marked by the checks plugin). */
export const foreignCheckRequests = new WeakSet<FastifyRequest>();

export function sendError(reply: FastifyReply, faults: Faults, status: number, body: Record<string, unknown>) {
  const req = reply.request;
  const place = placeOf(req);
  const out = { ...body };
  // ind7-err-404-template-after-401: notFound() spreads the shared template, unauthorized() Object.assign()s into it.
  if (faults.has('ind7-err-404-template-after-401')) {
    const template = templates.get(faults) ?? { statusCode: 404, error: 'Not Found' };
    templates.set(faults, template);
    if (status === 401) Object.assign(template, { statusCode: 401, error: 'Unauthorized' });
    if (status === 404) Object.assign(out, template);
  }
  // ind7-err-foreign-check-403-body-404: the ownership layer turns the miss into 403 by the status line only.
  const sentStatus = status === 404 && faults.has('ind7-err-foreign-check-403-body-404') && foreignCheckRequests.has(req) ? 403 : status;
  // ind-err-403-status-401: the 403 is built by the 401 helper, which writes its own statusCode.
  if (status === 403 && faults.has('ind-err-403-status-401')) out.statusCode = 401;
  // ind-err-check-404-notfound: the checks module names its error after its NotFound class.
  if (status === 404 && faults.has('ind-err-check-404-notfound') && (place === 'check-read' || place === 'check-update')) out.error = 'NotFound';
  // ind6-err-413-status-400: the body-size error is wrapped by the validation error helper.
  if (status === 413 && faults.has('ind6-err-413-status-400')) out.statusCode = 400;
  // ind6-err-404-message-null: the runtime lookup sends its optional detail as null.
  if (status === 404 && faults.has('ind6-err-404-message-null') && place === 'runtime') out.message = null;
  // ind9-err-404-nbsp: the runtime module's own "Not Found", copied from the rendered docs with a no-break space.
  if (status === 404 && faults.has('ind9-err-404-nbsp') && place === 'runtime') out.error = 'Not\u00a0Found';
  const rendered = renderError(status, out, faults.errorMutations(place, status), req.headers.authorization);
  const { type } = rendered;
  let { payload } = rendered;
  // ind8-err-400-duplicate-status-key: the validator's own details ({statusCode: 422, …}) spliced into the JSON text; the last key wins.
  if (status === 400 && place === 'check-update' && faults.has('ind8-err-400-duplicate-status-key') && payload.endsWith('}'))
    payload = `${payload.slice(0, -1)},${JSON.stringify({ statusCode: 422, validation: out.message }).slice(1)}`;
  // ind6-err-415-text: the media-type refusal is sent as the parser layer's plain text.
  if (status === 415 && faults.has('ind6-err-415-text'))
    return reply
      .code(415)
      .type('text/plain; charset=utf-8')
      .send(`Unsupported Media Type: ${String(out.message ?? '')}`);
  // ind-err-401-text-plain: the auth layer sends its JSON with reply.send(string) and no type.
  const sentType = status === 401 && faults.has('ind-err-401-text-plain') ? 'text/plain; charset=utf-8' : type;
  return reply.code(sentStatus).type(sentType).send(payload);
}

/** Maps anything thrown (ours, fastify's, ajv's, the limiter's) to a status and body; unknowns are 500. */
function toResponse(err: FastifyError | ApiError | RateLimitError): { status: number; body: Record<string, unknown> } {
  if (err instanceof RateLimitError) return { status: err.statusCode, body: err.body };
  if (err instanceof ApiError) return { status: err.statusCode, body: errorBody(err.statusCode, err.message) };
  const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
  // Fastify's own 4xx messages (bad JSON, media type, body size) carry no secrets; 5xx details stay inside.
  const message = status < 500 ? err.message : apiError('INTERNAL').message;
  return { status, body: { statusCode: status, error: reasonPhrase(status), message } };
}

export default fp(
  async function errorsPlugin(app: FastifyInstance, opts: { faults: Faults; seams: ErrorSeams }) {
    app.setErrorHandler((err: FastifyError, request, reply) => {
      const { status, body } = toResponse(err);
      if (status >= 500) request.log.error({ err }, 'request failed');
      return sendError(reply, opts.faults, status, body);
    });
    app.setNotFoundHandler((request, reply) => {
      // The URL is not echoed: a client may have put a secret in it.
      const e = apiError('ROUTE_NOT_FOUND');
      return sendError(reply, opts.faults, 404, errorBody(404, e.message));
    });
  },
  { name: 'errors' },
);
