/** RL-1 / RL-2 (the global limit) and RL-4 (a route's own) from a measurement's outcome, as clause checks. */
import type { ClauseId } from '../document/clauses';
import type { Verdict } from '../checks/verdict';
import { burstExchange } from './refusal-checks';
import type { BurstTarget } from './burst';
import type { Limit, LimitReport } from './measurement';
import { formatWindow } from './custom-limits';

interface JudgeOptions {
  /** Clause for too few served, and for too many (RL-1 / RL-2; RL-4 for both on a route's own limit). */
  low: ClauseId;
  high: ClauseId;
  /** Prefix for the titles, e.g. the route of a custom limit. */
  route?: string;
  /** What "allowed" says. */
  allowed: string;
}

export function judgeLimit(verdict: Verdict, report: LimitReport, limit: Limit, target: BurstTarget, o: JudgeOptions): void {
  const outcome = report.outcome;
  const last = report.measurements[report.measurements.length - 1];
  const refusal = last?.refusals[0] ?? last?.replies[last.replies.length - 1];
  const ex = refusal && burstExchange(target, refusal);
  const at = o.route ? `${o.route}: ` : '';
  const window = `window of ${formatWindow(limit.windowSeconds)}`;
  const held = (base: number) =>
    base ? ` on top of ${base} request(s) of the suite that the ${window} already held (by the target's own headers)` : ` in a fresh ${window}`;
  switch (outcome.kind) {
    case 'holds':
      verdict.pass(o.low);
      if (o.high !== o.low) verdict.pass(o.high);
      if (outcome.refilled)
        verdict.note(
          'rate-limit',
          `${at}${outcome.refilled} request(s) beyond ${limit.max} were served as the limiter refilled during the burst (a token bucket)`,
        );
      return;
    case 'too-low':
      verdict.fail({
        clause: o.low,
        title: `${at}429 after only ${outcome.served} requests${held(outcome.base)}: fewer than the limit of ${limit.max}`,
        received: `${outcome.served + outcome.base} counted`,
        allowed: o.allowed,
        exchange: ex,
      });
      if (o.high !== o.low) verdict.pass(o.high);
      return;
    case 'too-high':
      if (o.high !== o.low) verdict.pass(o.low);
      verdict.fail({
        clause: o.high,
        title: `${at}${outcome.served[0]} requests served${held(outcome.base)} (measured ${outcome.served.length} time(s)): more than the limit of ${limit.max}`,
        received: `${outcome.served.map((s) => s + outcome.base).join(', ')} counted`,
        allowed: o.allowed,
        exchange: ex,
      });
      return;
    case 'no-limit':
      if (o.high !== o.low) verdict.pass(o.low);
      verdict.fail({
        clause: o.high,
        title: `${at}${outcome.sent} requests in ${(outcome.ms / 1000).toFixed(1)} s, none refused`,
        received: `${outcome.sent} served, no 429`,
        served: outcome.sent,
        allowed: o.allowed,
        exchange: ex,
      });
      return;
    case 'wrong-status':
      verdict.fail({
        clause: o.high,
        title: `${at}the limit answered ${outcome.status} instead of 429 (after ${outcome.served} served)`,
        received: outcome.status,
        allowed: o.allowed,
        exchange: ex,
      });
      return;
    case 'inconclusive':
      verdict.fail({
        clause: o.high,
        title: `${at}the limit could not be measured: ${outcome.why}: ${report.story.join(' | ')}`,
        received: outcome.why,
        allowed: o.allowed,
        exchange: ex,
      });
  }
}
