/**
 * The checks every error response gets, wherever the suite provoked it: ERR-3, ERR-4, the documented
 * shapes of 404 (ERR-1) and 429 (ERR-2), and AUTH-7; more fields or another message are fine, as the
 * document states no more. Each exchange is checked once, whoever asks first.
 */
import { ERROR_WORDING } from '../document/facts';
import type { Exchange } from '../http/exchange';
import { containsSecret, SECRET_RUN } from '../http/redact';
import { headerValue } from '../http/transport';
import { credentialCandidates } from '../http/request-ledger';
import { errorBodies, errorBodyFor, isJsonContentType, zodLine } from '../document/rules';
import type { ClauseId } from '../document/clauses';
import type { Check } from './failure';
import type { Verdict } from './verdict';

const checked = new WeakSet<Exchange>();

/** The credentials a request carried in its Authorization header: each it may carry (the ledger's reading), and a split one joined. */
export function credentialsSent(ex: Pick<Exchange, 'requestHeaders'>): string[] {
  const value = headerValue(ex.requestHeaders, 'authorization')?.trim();
  if (!value) return [];
  const parts = value.split(/\s+/);
  const joined = parts.length > 1 ? parts.slice(1).join('') : parts[0];
  return [...new Set([joined, ...credentialCandidates(value)])].filter((k) => k.length >= SECRET_RUN);
}

/** An error body as every refusal needs it: a JSON object whose statusCode is the HTTP status. */
const statusBody = (clause: ClauseId, ex: Exchange, title: string): Check => ({
  clause,
  ok: errorBodyFor(ex.status).safeParse(ex.json).success,
  title,
  received: ex.json ?? ex.text.slice(0, 200),
  allowed: `{ "statusCode": ${ex.status}, ... }`,
  exchange: ex,
});

/**
 * "Rejected" in the clause catalogue is a 4xx with a JSON error body whose statusCode is the status:
 * a refusal without one breaks the rejecting clause too (AUTH-6, say), beside ERR-3/ERR-4 on the body.
 */
export function checkRejectionBody({ verdict, clause, exchange: ex }: { verdict: Verdict; clause: ClauseId; exchange: Exchange }): void {
  if (ex.status >= 400 && ex.status < 500)
    verdict.check(statusBody(clause, ex, `refused with ${ex.status}, but without a JSON error body whose statusCode is ${ex.status}`));
}

/** An error answer's checks (the verdict stamped with where it was provoked); `sentKeys`: keys its request carried besides the Authorization header's, never echoed back either. */
export function checkErrorResponse({ verdict: v, exchange: ex, sentKeys = [] }: { verdict: Verdict; exchange: Exchange; sentKeys?: string[] }): void {
  if (ex.status < 400 || checked.has(ex)) return;
  checked.add(ex);
  v.check({
    clause: 'ERR-3',
    ok: isJsonContentType(ex.contentType),
    title: `error response without a JSON content type`,
    received: ex.contentType || 'no content-type',
    allowed: 'application/json',
    exchange: ex,
  });
  v.check(statusBody('ERR-4', ex, `error body is not a JSON object whose statusCode is the HTTP status ${ex.status}`));
  const shape = ex.status === 404 ? 'ERR-1' : ex.status === 429 ? 'ERR-2' : undefined;
  if (shape) {
    const parsed = errorBodies[ex.status as 404 | 429].safeParse(ex.json);
    v.check({
      clause: shape,
      ok: parsed.success,
      title: `${ex.status} body breaks the documented shape: ${parsed.success ? '' : zodLine(parsed.error)}`,
      received: ex.json ?? ex.text.slice(0, 200),
      allowed: `{ "statusCode": ${ex.status}, "error": "${ERROR_WORDING[ex.status as 404 | 429]}", "message"?: string${ex.status === 429 ? ', "attributes"?: object' : ''} }`,
      exchange: ex,
    });
  }
  const keys = [...new Set([...credentialsSent(ex), ...sentKeys])].filter((k) => k.length >= SECRET_RUN);
  for (const key of keys) {
    v.check({
      clause: 'AUTH-7',
      ok: !containsSecret(ex.text, key),
      title: `error body echoes the API key sent, or part of it`,
      received: 'the key (or a run of it, or its base64) in the body',
      allowed: 'a body that never contains the key',
      exchange: ex,
    });
  }
}
