// The seams of this part of the service: its rules as data and functions, read where they apply, so a
// plugin from outside (REFERENCE_PLUGINS) may change one before the service's own plugins are registered.
import type { FastifyRequest } from 'fastify';
import { answerClientError } from './client-error';

/** An error answer as it is sent: the status line, the media type, and the body's text. */
export interface ErrorAnswer {
  status: number;
  type: string;
  payload: string;
}

export interface ErrorSeams {
  /**
   * "Error bodies are JSON objects": the answer to an error of this request, its status with the body the
   * service built for it ({statusCode, error, message}, and a 429's attributes) as JSON. Read by sendError
   * for every error the service answers.
   */
  answer: (req: FastifyRequest, status: number, body: Readonly<Record<string, unknown>>) => ErrorAnswer;
  /** The same for what the HTTP parser refuses before any route runs (a request line or headers too large): client-error.ts. */
  parserRefusal: typeof answerClientError;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export const errorSeams = (): ErrorSeams => ({
  answer: (_req, status, body) => ({ status, type: JSON_TYPE, payload: JSON.stringify(body) }),
  parserRefusal: answerClientError,
});
