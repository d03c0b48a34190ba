/** What the limiter answered: every 429 must carry the ERR-2 body, as JSON (RL-3 / RL-4, ERR-2, ERR-3, ERR-4, AUTH-7). */
import type { BurstTarget, OneRequest, Reply } from './burst';
import type { ClauseId } from '../document/clauses';
import { conform } from '../checks/conformance';
import { checkErrorResponse } from '../checks/error-checks';
import type { Exchange } from '../http/exchange';
import { errorBodies, zodLine } from '../document/rules';
import type { SchemaValidator } from '../spec/schema-validator';
import type { Spec, SpecOperation } from '../spec/spec';
import type { Verdict } from '../checks/verdict';

/** A reply as an Exchange, so the suite's error checks and spec conformance apply to it. */
export function replyExchange(origin: string, request: Pick<OneRequest, 'method' | 'path' | 'headers' | 'body'>, r: Reply): Exchange {
  let json: unknown;
  try {
    json = r.body ? JSON.parse(r.body) : undefined;
  } catch {
    json = undefined;
  }
  const contentType = r.headers['content-type'] ?? '';
  return {
    method: request.method,
    url: `${origin}${request.path}`,
    requestHeaders: request.headers,
    requestBody: request.body,
    status: r.status,
    headers: r.headers,
    text: r.body ?? '',
    json,
    contentType,
    ms: r.at - r.sentAt,
  };
}

export const burstExchange = (target: BurstTarget, r: Reply) =>
  replyExchange(target.origin, { method: 'GET', path: r.path ?? target.path, headers: target.headers }, r);

/** Every 429 carries the ERR-2 body with a JSON content type (`clause`: RL-3 global, RL-4 a route's own); identical answers are checked once. */
export function checkRefusalBodies(
  verdict: Verdict,
  spec: Spec,
  validator: SchemaValidator,
  op: SpecOperation | undefined,
  exchanges: Exchange[],
  clause: ClauseId,
  sentKeys: string[],
): void {
  const tooMany = exchanges.filter((e) => e.status === 429);
  if (!tooMany.length) return;
  const bad = tooMany.filter((e) => !errorBodies[429].safeParse(e.json).success);
  const parsed = bad[0] && errorBodies[429].safeParse(bad[0].json);
  verdict.check({
    clause,
    ok: bad.length === 0,
    title: `${bad.length} of ${tooMany.length} 429 answers lack the documented body${parsed && !parsed.success ? `: ${zodLine(parsed.error)}` : ''}`,
    received: bad[0] ? (bad[0].json ?? bad[0].text) : undefined,
    allowed: '{ "statusCode": 429, "error": "Too Many Requests", "message"?: string, "attributes"?: object }',
    exchange: bad[0] ?? tooMany[0],
  });
  const groups = new Map<string, Exchange>();
  for (const e of tooMany) {
    const key = `${e.contentType}\n${e.text.replace(/\d+/g, '#')}`;
    if (!groups.has(key)) groups.set(key, e);
  }
  for (const ex of [...groups.values()].slice(0, 5)) {
    checkErrorResponse({ verdict, exchange: ex, sentKeys });
    conform({ verdict, spec, validator, op, exchange: ex, intent: 'invalid', clause });
  }
}
