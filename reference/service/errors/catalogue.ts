// One catalogue of every error the service raises: code -> status and message. Handlers throw
// `apiError(code)`; the errors plugin turns it into the one body shape {statusCode, error, message}.
import { STATUS_CODES } from 'node:http';

export const ERRORS = {
  AUTH_MISSING: { status: 401, message: 'Missing Authorization header: send "Authorization: Bearer <API key>"' },
  AUTH_SCHEME: { status: 401, message: 'Authorization must use the Bearer scheme' },
  AUTH_BAD_KEY: { status: 401, message: 'Invalid API key' },
  ACCOUNT_MISSING: { status: 401, message: 'Missing account header' },
  ACCOUNT_NOT_GUID: { status: 400, message: 'The account header must be a GUID' },
  ACCOUNT_FORBIDDEN: { status: 403, message: 'The API key has no access to this account' },
  RUNTIME_NOT_FOUND: { status: 404, message: 'Runtime not found' },
  CHECK_NOT_FOUND: { status: 404, message: 'Check not found' },
  ROUTE_NOT_FOUND: { status: 404, message: 'Route not found' },
  INVALID_BODY: { status: 400, message: 'Invalid request body' },
  INVALID_QUERY: { status: 400, message: 'Invalid query parameter' },
  INTERNAL: { status: 500, message: 'Internal server error' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** `detail` is appended to the catalogue message; callers must never pass secrets. */
export const apiError = (code: ErrorCode, detail?: string): ApiError =>
  new ApiError(code, ERRORS[code].status, detail ? `${ERRORS[code].message}: ${detail}` : ERRORS[code].message);

export type ErrorBody = { statusCode: number; error: string; message: string };

export const reasonPhrase = (status: number): string => STATUS_CODES[status] ?? 'Error';

export const errorBody = (status: number, message: string): ErrorBody => ({ statusCode: status, error: reasonPhrase(status), message });
