/** The clause checks of what a limiter did: RL-1 / RL-2 (the global limit) or RL-4 (a route's own) from a measurement's outcome, and the 429 bodies (RL-3, ERR-2..4, AUTH-7). */
import type { BurstTarget, Reply } from './burst';
import type { ClauseId } from '../document/clauses';
import { conform } from '../checks/conformance';
import { checkErrorResponse } from '../checks/error-checks';
import type { Exchange } from '../http/exchange';
import { documentedErrorBody, errorBodies, zodFinding, zodTitle } from '../document/rules';
import type { SchemaValidator } from '../spec/schema-validator';
import type { Spec, SpecOperation } from '../spec/spec';
import type { Verdict } from '../checks/verdict';
import type { Limit, LimitReport } from './measurement';
import { formatWindow } from './custom-limits';

/** A reply as an Exchange, so the suite's error checks and spec conformance apply to it. */
export function burstExchange(target: BurstTarget, r: Reply): Exchange {
  let json: unknown;
  try {
    json = r.body ? JSON.parse(r.body) : undefined;
  } catch {
    json = undefined;
  }
  return {
    method: target.method ?? 'GET',
    url: `${target.origin}${r.path ?? target.path}`,
    requestHeaders: target.headers,
    requestBody: target.body,
    status: r.status,
    headers: r.headers,
    text: r.body ?? '',
    json,
    contentType: r.headers['content-type'] ?? '',
    ms: r.at - r.sentAt,
  };
}

/** RL-3: every 429 carries the ERR-2 body with a JSON content type, a route's own limit's too (RL-4 is the limit itself); identical answers are checked once. */
export function checkRefusalBodies(
  verdict: Verdict,
  spec: Spec,
  validator: SchemaValidator,
  op: SpecOperation | undefined,
  exchanges: Exchange[],
  sentKeys: string[],
): void {
  const tooMany = exchanges.filter((e) => e.status === 429);
  if (!tooMany.length) return;
  const bad = tooMany.filter((e) => !errorBodies[429].safeParse(e.json).success);
  const parsed = bad[0] && errorBodies[429].safeParse(bad[0].json);
  const found = parsed && !parsed.success ? zodFinding(parsed.error, bad[0].json ?? bad[0].text) : undefined;
  verdict.check({
    clause: 'RL-3',
    ok: bad.length === 0,
    field: found?.field,
    title: found ? `${zodTitle(found, 'the documented body')} (${bad.length} of ${tooMany.length} 429 answers)` : '',
    received: found?.received,
    allowed: documentedErrorBody(429),
    exchange: bad[0] ?? tooMany[0],
  });
  const shape = (e: Exchange) => `${e.contentType}\n${e.text.replace(/\d+/g, '#')}`;
  for (const ex of tooMany.filter((e, i) => tooMany.findIndex((x) => shape(x) === shape(e)) === i).slice(0, 5)) {
    checkErrorResponse({ verdict, exchange: ex, sentKeys });
    conform({ verdict, spec, validator, op, exchange: ex, intent: 'invalid', clause: 'RL-3' });
  }
}

/** RL-1 for too few served and RL-2 for too many; RL-4 for both on a route's own limit (`route`, which prefixes the titles). */
export function judgeLimit(verdict: Verdict, report: LimitReport, limit: Limit, target: BurstTarget, allowed: string, route?: string): void {
  const [low, high]: ClauseId[] = route ? ['RL-4', 'RL-4'] : ['RL-1', 'RL-2'];
  const o = report.outcome;
  const last = report.measurements[report.measurements.length - 1];
  const refusal = last.refusals[0] ?? last.replies[last.replies.length - 1];
  const at = route ? `${route}: ` : '';
  const window = `window of ${formatWindow(limit.windowSeconds)}`;
  const held = (base: number) =>
    base ? ` on top of ${base} request(s) of the suite that the ${window} already held (by the target's own headers)` : ` in a fresh ${window}`;
  // What failed, on which clause: too few served fails the first, anything else the second; nothing when the limit holds.
  const fail = (title: string, received: unknown, clause = high) => ({ clause, title: `${at}${title}`, received });
  const failure =
    o.kind === 'holds'
      ? undefined
      : o.kind === 'too-low'
        ? fail(`429 after only ${o.served} requests${held(o.base)}: fewer than the limit of ${limit.max}`, `${o.served + o.base} counted`, low)
        : o.kind === 'too-high'
          ? fail(
              `${o.served[0]} requests served${held(o.base)} (measured ${o.served.length} time(s)): more than the limit of ${limit.max}`,
              `${o.served.map((s) => s + o.base).join(', ')} counted`,
            )
          : o.kind === 'no-limit'
            ? fail(`${o.sent} requests in ${(o.ms / 1000).toFixed(1)} s, none refused`, `${o.sent} served, no 429`)
            : o.kind === 'wrong-status'
              ? fail(`the limit answered another status than 429 (after ${o.served} served)`, o.status)
              : fail(`the limit could not be measured: ${o.why}: ${report.story.join(' | ')}`, o.why);
  // Where the count was seen, the clause that did not fail held.
  const counted = o.kind !== 'wrong-status' && o.kind !== 'inconclusive';
  for (const clause of new Set([low, high])) if (counted && clause !== failure?.clause) verdict.pass(clause);
  if (failure) verdict.fail({ ...failure, allowed, exchange: refusal && burstExchange(target, refusal) });
  else if (o.kind === 'holds' && o.refilled)
    verdict.note('rate-limit', `${at}${o.refilled} request(s) beyond ${limit.max} were served as the limiter refilled during the burst (a token bucket)`);
}
