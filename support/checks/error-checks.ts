/** The checks every error response gets: ERR-3 (JSON), ERR-4 (statusCode = status), ERR-1/ERR-2 shapes, AUTH-7. */
import { ERROR_WORDING } from '../document/facts';
import { oneLine, type Exchange } from '../http/exchange';
import { containsSecret, SECRET_RUN } from '../http/redact';
import { errorBodies, errorBodyFor, isJsonContentType, zodLine } from '../document/rules';
import type { Verdict } from './verdict';

export function checkErrorResponse(verdict: Verdict, ex: Exchange, sentKeys: string[] = []): void {
  if (ex.status < 400) return;
  const where = oneLine(ex);
  verdict.check('ERR-3', isJsonContentType(ex.contentType), `error response without a JSON content type (${where})`, ex.contentType || 'no content-type', 'application/json', ex);
  const isObject = ex.json !== null && typeof ex.json === 'object' && !Array.isArray(ex.json);
  if (verdict.check('ERR-4', isObject, `error body is not a JSON object (${where})`, ex.text.slice(0, 200), `{ "statusCode": ${ex.status}, ... }`)) {
    const parsed = errorBodyFor(ex.status).safeParse(ex.json);
    verdict.check('ERR-4', parsed.success, `error body's statusCode is not the HTTP status ${ex.status} (${where})`, (ex.json as { statusCode?: unknown }).statusCode, `the number ${ex.status}`, ex);
  }
  const shape = ex.status === 404 ? 'ERR-1' : ex.status === 429 ? 'ERR-2' : undefined;
  if (shape) {
    const parsed = errorBodies[ex.status as 404 | 429].safeParse(ex.json);
    verdict.check(shape, parsed.success, `${ex.status} body breaks the documented shape: ${parsed.success ? '' : zodLine(parsed.error)} (${where})`, ex.json ?? ex.text.slice(0, 200), `{ "statusCode": ${ex.status}, "error": "${ERROR_WORDING[ex.status as 404 | 429]}", "message"?: string${ex.status === 429 ? ', "attributes"?: object' : ''} }`, ex);
  }
  for (const key of sentKeys.filter((k) => k.length >= SECRET_RUN)) {
    verdict.check('AUTH-7', !containsSecret(ex.text, key), `error body echoes the API key sent, or part of it (${where})`, 'the key (or a run of it, or its base64) in the body', 'a body that never contains the key', ex);
  }
}
