/** What the limiter answered: every 429 must carry the ERR-2 body (RL-3 / RL-4, ERR-2). */
import type { BurstTarget, Reply } from './burst';
import type { ClauseId } from '../document/clauses';
import { conform } from '../checks/conformance';
import { checkErrorResponse } from '../checks/error-checks';
import type { Exchange } from '../http/exchange';
import { errorBodies, zodLine } from '../document/rules';
import type { SchemaValidator } from '../spec/schema-validator';
import type { Spec, SpecOperation } from '../spec/spec';
import type { Verdict } from '../checks/verdict';

/** A reply as an Exchange, so the suite's error checks and spec conformance apply to it. */
export function replyExchange(target: BurstTarget, r: Reply): Exchange {
  let json: unknown;
  try {
    json = r.body ? JSON.parse(r.body) : undefined;
  } catch {
    json = undefined;
  }
  const contentType = r.headers['content-type'] ?? '';
  return { method: 'GET', url: `${target.origin}${target.path}`, requestHeaders: target.headers, status: r.status, headers: r.headers, text: r.body ?? '', json, contentType, ms: r.at - r.sentAt };
}

/**
 * Every 429 must carry the ERR-2 body (`clause`: RL-3 for the global limit, RL-4 for a route's own).
 * Identical answers are checked once, so a thousand 429s make one line, not a thousand.
 */
export function checkRefusalBodies(verdict: Verdict, spec: Spec, validator: SchemaValidator, op: SpecOperation | undefined, target: BurstTarget, replies: Reply[], clause: ClauseId, sentKeys: string[]): void {
  const tooMany = replies.filter((r) => r.status === 429);
  const groups = new Map<string, Reply[]>();
  for (const r of tooMany) {
    const key = `${r.headers['content-type'] ?? ''}\n${(r.body ?? '').replace(/\d+/g, '#')}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const bad = tooMany.filter((r) => !errorBodies[429].safeParse(replyExchange(target, r).json).success);
  const sample = bad[0] && replyExchange(target, bad[0]);
  const parsed = sample && errorBodies[429].safeParse(sample.json);
  verdict.check(clause, bad.length === 0, `${bad.length} of ${tooMany.length} 429 answers lack the documented body${parsed && !parsed.success ? `: ${zodLine(parsed.error)}` : ''}`, sample?.json ?? sample?.text, '{ "statusCode": 429, "error": "Too Many Requests", "message"?: string, "attributes"?: object }');
  for (const [, [first]] of [...groups].slice(0, 5)) {
    const ex = replyExchange(target, first);
    checkErrorResponse(verdict, ex, sentKeys);
    conform(verdict, spec, validator, op, ex, 'invalid', clause);
  }
}
