/**
 * The checks every error response gets, wherever the suite provoked it: ERR-3, ERR-4, the documented
 * shapes of 404 (ERR-1) and 429 (ERR-2), and AUTH-7; more fields or another message are fine, as the
 * document states no more. Each exchange is checked once, whoever asks first.
 */
import type { Exchange } from '../http/exchange';
import { containsSecret, SECRET_RUN } from '../http/redact';
import { headerValue } from '../http/transport';
import { credentialCandidates } from '../http/request-ledger';
import { documentedErrorBody, errorBodies, errorBodyFor, isJsonContentType, zodFinding, zodTitle } from '../document/rules';
import { show } from './failure';
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

/**
 * Where an error answer was provoked, as its findings are keyed: the verdict's place (the route by
 * role), else the request's method and path; with the status. The same body at the same place and
 * status is one cause: one failure, however many probes met it.
 */
const placeAndStatus = (v: Verdict, ex: Exchange) =>
  `${v.where.place ?? `${ex.method} ${URL.canParse(ex.url) ? new URL(ex.url).pathname : ex.url}`} ${ex.status}`;

const isObject = (json: unknown): json is Record<string, unknown> => !!json && typeof json === 'object' && !Array.isArray(json);

/**
 * An error answer's checks (the verdict stamped with where it was provoked); `sentKeys`: keys its
 * request carried besides the Authorization header's, never echoed back either. The clause of the probe
 * that provoked it judges its status (a 4xx) and nothing else: the body is these clauses' alone. A body
 * that is no JSON object fails ERR-3 only: statusCode and the documented shapes are judged where there
 * is an object to read them from.
 */
export function checkErrorResponse({ verdict: v, exchange: ex, sentKeys = [] }: { verdict: Verdict; exchange: Exchange; sentKeys?: string[] }): void {
  if (ex.status < 400 || checked.has(ex)) return;
  checked.add(ex);
  const key = placeAndStatus(v, ex);
  const jsonType = isJsonContentType(ex.contentType);
  const body = isObject(ex.json) ? ex.json : undefined;
  const object = body !== undefined;
  const received = ex.json ?? ex.text.slice(0, 200);
  v.check({
    clause: 'ERR-3',
    ok: jsonType && object,
    title: !jsonType
      ? `${ex.status} answer without a JSON content type${object ? '' : ' nor a JSON object body'}`
      : `${ex.status} answer whose body is not a JSON object`,
    received: jsonType ? received : `${ex.contentType || 'no content-type'}: ${show(received, 120)}`,
    allowed: 'application/json and a JSON object body',
    exchange: ex,
    key,
  });
  if (body) {
    v.check({
      clause: 'ERR-4',
      ok: errorBodyFor(ex.status).safeParse(ex.json).success,
      field: 'statusCode',
      title: 'of the error body is not the HTTP status',
      received: body.statusCode,
      allowed: String(ex.status),
      exchange: ex,
      key,
    });
    const shape = ex.status === 404 ? 'ERR-1' : ex.status === 429 ? 'ERR-2' : undefined;
    if (shape) {
      const parsed = errorBodies[ex.status as 404 | 429].safeParse(ex.json);
      const found = parsed.success ? undefined : zodFinding(parsed.error, body);
      v.check({
        clause: shape,
        ok: parsed.success,
        field: found?.field,
        title: found ? zodTitle(found, `the documented ${ex.status} body`) : '',
        received: found ? found.received : body,
        allowed: documentedErrorBody(ex.status as 404 | 429),
        exchange: ex,
        key,
      });
    }
  }
  const keys = [...new Set([...credentialsSent(ex), ...sentKeys])].filter((k) => k.length >= SECRET_RUN);
  for (const sent of keys) {
    v.check({
      clause: 'AUTH-7',
      ok: !containsSecret(ex.text, sent),
      title: `error body echoes the API key sent, or part of it`,
      received: 'the key (or a run of it, or its base64) in the body',
      allowed: 'a body that never contains the key',
      exchange: ex,
      key,
    });
  }
}
