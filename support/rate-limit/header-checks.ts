/**
 * RL-6: each response's rate-limit values in their family's unit, then the remaining count across a burst's served replies, judged
 * against the limit the headers announce; a global limit seen from a route with its own never rises within its window.
 */
import { isServed, type BurstTarget, type Reply } from './burst';
import {
  announcedPolicy,
  brokenAnnouncement,
  describeBroken,
  describeLimit,
  readLimitHeaders,
  type Announced,
  type LimitHeaders,
  type PolicyKind,
  type RouteLimits,
} from './headers';
import { burstExchange } from './judge';
import type { Limit, LimitReport } from './measurement';
import type { Verdict } from '../checks/verdict';

/** Problems one line each; identical ones are counted, not repeated. */
class Lines {
  private readonly seen = new Map<string, { count: number; reply?: Reply }>();

  add(line: string, reply?: Reply): void {
    const entry = this.seen.get(line) ?? { count: 0, reply };
    entry.count++;
    this.seen.set(line, entry);
  }

  get lines(): string[] {
    return [...this.seen].map(([p, { count }]) => (count > 1 ? `${p} (×${count})` : p));
  }

  /** The first reply behind the first line, for the report's request line. */
  get sample(): Reply | undefined {
    return [...this.seen.values()][0]?.reply;
  }
}

export class HeaderProblems extends Lines {
  /** What holds but is worth saying (a 429 from a route's own limit under global headers with room). */
  readonly notes = new Lines();
}

/** The unit and range of each value one response gives (no comparison with other responses); returns the limit they announce. */
export function checkValues(h: LimitHeaders, status: number, limits: RouteLimits, out: HeaderProblems, reply?: Reply): Announced {
  const { own } = limits;
  const announced = announcedPolicy(h, limits);
  const limit = announced.limit;
  const windowS = limit.windowSeconds;
  for (const p of h.problems) out.add(p, reply);
  if (announced.wrong) out.add(announced.wrong, reply);
  if (h.remaining !== undefined && !(Number.isInteger(h.remaining) && h.remaining >= 0)) out.add(`remaining ${h.remaining} is not a whole number >= 0`, reply);
  // A served request is counted: it leaves at most limit - 1 (the limit it names; a wrong one is its own line).
  const named = h.limit ?? limit.max;
  if (h.remaining !== undefined && isServed(status) && h.remaining > named - 1)
    out.add(`a served request says ${h.remaining} remain, more than limit - 1 (${named - 1})`, reply);
  // On a route with its own limit, global headers with room left on a 429 say the route's limit refused.
  const roomOn429 = status === 429 && h.remaining !== undefined && h.remaining > 0;
  const byOwn = roomOn429 && !!own && announced.kind === 'global';
  if (byOwn)
    out.notes.add(
      `a 429 from the route's own limit (${describeLimit(own)}) while its headers, which announce the global limit (${describeLimit(limit)}), showed room left: a server with several limits may report one, and a positive remaining count is no promise`,
      reply,
    );
  else if (roomOn429) out.add(`a 429 says ${h.remaining} requests remain`, reply);
  if (h.reset !== undefined) {
    const header = h.resetHeader ?? 'reset';
    if (/^ratelimit/i.test(header) && h.resetUnit !== 'seconds-until')
      out.add(`${header} ${h.resetRaw} is an epoch time; the IETF drafts define seconds until the reset`, reply);
    else if (!(h.reset >= -1 && h.reset <= windowS + 1))
      out.add(`${header} ${h.resetRaw} (${h.resetUnit}) puts the reset ${Math.round(h.reset)} s away; the window is ${windowS} s`, reply);
  }
  if (status === 429 && h.retryAfter !== undefined) {
    // Retry-After tells when the limit that refused lets requests through again: within its window.
    const refusedS = byOwn ? own!.windowSeconds : windowS;
    if (!(h.retryAfter > 0)) out.add(`Retry-After ${h.retryAfter} on a 429, but requests sent right after it were refused`, reply);
    else if (h.retryAfter > refusedS + 1) out.add(`Retry-After ${h.retryAfter} s on a 429 is longer than the ${refusedS} s window`, reply);
  }
  return announced;
}

export interface BurstHeaderContext {
  /** The limit the burst measured: the global one, or the route's own. */
  limit: Limit;
  /** On a route with a limit of its own (`limit`): the global limit, which its headers may announce instead. */
  global?: Limit;
  /** The window held none of the suite's requests with the key: the first served request leaves limit - 1. */
  fresh: boolean;
  /** Requests served beyond the limit by refills (a bucket may repeat a remaining value that often). */
  refilled: number;
  /** The burst reached the limit (a 429 after the served requests): the last one served leaves 0. */
  reachedLimit: boolean;
  served: number;
}

type Read = { r: Reply; h: LimitHeaders; kind: PolicyKind };

/** RL-6 over one burst: every reply's values, then remaining across the served replies. */
export function burstHeaderProblems(replies: Reply[], ctx: BurstHeaderContext): HeaderProblems {
  const out = new HeaderProblems();
  const limits = ctx.global ? { global: ctx.global, own: ctx.limit } : { global: ctx.limit };
  const measured: PolicyKind = ctx.global ? 'own' : 'global';
  const read: Read[] = replies.map((r) => {
    const h = readLimitHeaders(r.headers, r.at);
    return { r, h, kind: checkValues(h, r.status, limits, out, r).kind };
  });
  const served = read.filter(({ r }) => isServed(r.status));
  measuredWindow(
    served.filter((x) => x.kind === measured),
    ctx,
    out,
  );
  if (ctx.global)
    neverRises(
      served.filter((x) => x.kind === 'global'),
      out,
    );
  return out;
}

/** The window the burst measured: remaining falls by one per served request, to 0 at the limit. */
function measuredWindow(served: Read[], ctx: BurstHeaderContext, out: HeaderProblems): void {
  const remaining = served.map(({ h }) => h.remaining).filter((n): n is number => n !== undefined);
  if (!remaining.length) return;
  const sample = served[0].r;
  const repeats = remaining.length - new Set(remaining).size;
  if (repeats > ctx.refilled)
    out.add(`remaining repeated ${repeats} time(s) over ${remaining.length} served requests: it does not fall by one per counted request`, sample);
  const max = Math.max(...remaining);
  const min = Math.min(...remaining);
  // In a fresh window the first request leaves one less than the target served in all (its own limit).
  const first = ctx.served - ctx.refilled - 1;
  if (ctx.fresh && ctx.reachedLimit && max !== first)
    out.add(
      `the first request of a fresh window left ${max} remaining, but the target then served ${ctx.served - ctx.refilled} in all (so ${first} remained)`,
      sample,
    );
  if (ctx.reachedLimit && min !== 0) out.add(`the last request served before the 429 left ${min} remaining, not 0`, sample);
}

/** The global window seen from a route with its own limit: a request sent after another's answer leaves no more remaining, within one window. */
function neverRises(served: Read[], out: HeaderProblems): void {
  for (const a of served) {
    if (a.h.remaining === undefined || a.h.reset === undefined) continue;
    const windowEnds = a.r.at + (a.h.reset - 1) * 1000;
    const later = served.find((b) => b.r.sentAt > a.r.at && b.r.sentAt < windowEnds && b.h.remaining !== undefined && b.h.remaining > a.h.remaining!);
    if (later)
      return out.add(
        `the global remaining count rose from ${a.h.remaining} to ${later.h.remaining}, on a request sent after the answer that said ${a.h.remaining}, within the window its reset announced`,
        later.r,
      );
  }
}

/** RL-6 on the decisive burst; `global`: the burst measured a route's own limit, and its headers may announce the global one instead. */
export function checkBurstHeaders(verdict: Verdict, report: LimitReport, limit: Limit, target: BurstTarget, global?: Limit): void {
  const m = report.measurements[report.measurements.length - 1];
  const replies = [...m.replies, ...m.confirmations];
  if (!replies.some((r) => readLimitHeaders(r.headers).names.length)) {
    verdict.note('RL-6', 'the target sends no rate-limit headers (Retry-After, RateLimit-*, X-RateLimit-*): nothing to check');
    return;
  }
  const o = report.outcome;
  const decided = o.kind === 'holds' || o.kind === 'too-low' || o.kind === 'too-high';
  const refilled = o.kind === 'holds' ? (o.refilled ?? 0) : 0;
  const problems = burstHeaderProblems(replies, {
    limit,
    fresh: m.baseFrom === 'fresh',
    refilled,
    reachedLimit: decided && m.refusals.length > 0,
    served: m.served,
    ...(global ? { global } : {}),
  });
  // A second burst after a waited window observes a window end: what the 429s before it announced must hold.
  const broken = brokenAnnouncement(
    report.measurements.flatMap((x) => [...x.replies, ...x.confirmations]),
    !!global,
  );
  if (broken) problems.add(describeBroken(broken), broken.later);
  for (const note of problems.notes.lines) verdict.note('RL-6', note);
  const sample = problems.sample;
  verdict.check({
    clause: 'RL-6',
    ok: problems.lines.length === 0,
    title: `rate-limit headers disagree with the window or with what the target did: ${problems.lines.join('; ')}`,
    received: problems.lines,
    allowed: global
      ? `headers announce the route's own limit (${limit.max} per ${limit.windowSeconds} s: remaining falls by one per served request to 0 at the limit) or the global one (${global.max} per ${global.windowSeconds} s: remaining never rises within its window); reset and Retry-After within the announced window`
      : `limit = ${limit.max}; remaining falls by one per served request, from ${limit.max - 1} in a fresh window to 0 at the limit; reset within ${limit.windowSeconds} s (seconds until, or epoch seconds for X-RateLimit-Reset); Retry-After on a 429 from 1 to ${limit.windowSeconds} s`,
    exchange: sample && burstExchange(target, sample),
  });
}
