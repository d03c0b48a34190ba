// An error response as sent: the JSON body with its content type, bent by the errbody mutations that
// cover its route and status. Every error leaves through here, so a mutation reaches all of them.
import type { ErrorMutation } from '../../fault-kinds';

export interface RenderedError {
  type: string;
  payload: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

/** "Not Found" -> "Not found", "Unauthorized" -> "unauthorized": the slip a hand-written phrase makes. */
const misworded = (phrase: string) => (phrase.includes(' ') ? phrase[0] + phrase.slice(1).toLowerCase() : phrase.toLowerCase());

/** A status that is not the response's: 401 says 403 (the classic mix-up), the others a plain 400 (400 says 422). */
const otherStatus = (status: number) => (status === 401 ? 403 : status === 400 ? 422 : 400);

export function renderError(status: number, body: Record<string, unknown>, mutations: readonly ErrorMutation[], authorization?: string): RenderedError {
  const out: Record<string, unknown> = { ...body };
  const has = (m: ErrorMutation) => mutations.includes(m);
  if (has('string-status')) out.statusCode = String(out.statusCode ?? status);
  if (has('status-mismatch')) out.statusCode = otherStatus(status);
  if (has('no-status')) delete out.statusCode;
  if (has('wording') && typeof out.error === 'string') out.error = misworded(out.error);
  if (has('no-error')) delete out.error;
  // The Authorization value, scheme and key, quoted back: what AUTH-7 forbids.
  if (has('echo-key') && authorization) out.message = `${String(out.message ?? '')} (Authorization: "${authorization}")`;
  if (has('message-number')) out.message = status;
  if (has('attributes-string') && 'attributes' in out) out.attributes = JSON.stringify(out.attributes);
  // A proxy's or framework's own page in place of the API's body (a 413 from a body limit, say).
  if (has('html'))
    return { type: HTML_TYPE, payload: `<html><head><title>${status} ${String(out.error ?? '')}</title></head><body><h1>${status}</h1></body></html>` };
  if (has('not-json')) return { type: TEXT_TYPE, payload: `${String(out.error ?? status)}: ${String(out.message ?? '')}` };
  return { type: has('text-type') ? TEXT_TYPE : JSON_TYPE, payload: JSON.stringify(out) };
}
