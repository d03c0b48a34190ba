// Every error leaves through sendError: one body shape, and one seam (errors/seams.ts) that renders it.
import type { ErrorSeams } from '../errors/seams';
import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody, apiError, reasonPhrase, type ApiError } from '../errors/catalogue';
import type { RateLimitError } from '../rate-limit/too-many-requests';

declare module 'fastify' {
  interface FastifyInstance {
    /** The error part's seams, decorated on the root so that every route's reply reaches them. */
    errorSeams: ErrorSeams;
  }
}

/** Sends an error: the status and its body, as the error seams render them (read now, not at registration). */
export function sendError(reply: FastifyReply, status: number, body: Record<string, unknown>) {
  const answer = reply.server.errorSeams.answer(reply.request, status, body);
  return reply.code(answer.status).type(answer.type).send(answer.payload);
}

/** A refusal that carries its whole body (the limiter's 429), known by its shape: a plugin bundled on its own throws its own copy of the class. */
const carriesBody = (err: object): err is RateLimitError =>
  typeof (err as Partial<RateLimitError>).statusCode === 'number' && typeof (err as Partial<RateLimitError>).body === 'object';

/** Maps anything thrown (ours, fastify's, ajv's, the limiter's, a plugin's) to a status and body; unknowns are 500. */
function toResponse(err: FastifyError | ApiError | RateLimitError): { status: number; body: Record<string, unknown> } {
  if (carriesBody(err)) return { status: err.statusCode, body: err.body };
  const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
  // Fastify's own 4xx messages (bad JSON, media type, body size) carry no secrets; 5xx details stay inside.
  const message = status < 500 ? err.message : apiError('INTERNAL').message;
  return { status, body: { statusCode: status, error: reasonPhrase(status), message } };
}

/** How much of a body refused for its size is read before the answer, and for how long at most. */
const DRAIN = { bytes: 16 * 1024 * 1024, ms: 5000 } as const;

/**
 * A body refused before it was read (413) is read to its end, within bounds, before the answer goes: a connection closed on unread
 * data is reset, and the reset takes the answer with it, so the client would see no 413 at all.
 */
function drained(raw: IncomingMessage): Promise<void> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise((done) => {
    let read = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.removeListener('data', count);
      done();
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN.bytes) finish();
    };
    const timer = setTimeout(finish, DRAIN.ms);
    raw.on('data', count).once('end', finish).once('error', finish).resume();
  });
}

export default fp(
  async function errorsPlugin(app: FastifyInstance, opts: { seams: ErrorSeams }) {
    app.decorate('errorSeams', opts.seams);
    app.setErrorHandler(async (err: FastifyError, request, reply) => {
      const { status, body } = toResponse(err);
      if (status >= 500) request.log.error({ err }, 'request failed');
      if (status === 413) await drained(request.raw);
      return sendError(reply, status, body);
    });
    app.setNotFoundHandler((request, reply) => {
      // The URL is not echoed: a client may have put a secret in it.
      const e = apiError('ROUTE_NOT_FOUND');
      return sendError(reply, 404, errorBody(404, e.message));
    });
  },
  { name: 'errors' },
);
