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
  type LimitHeaders,
  type PolicyKind,
  type RouteLimits,
} from './headers';
import { burstExchange } from './judge';
import type { Limit, LimitReport, Measurement, Outcome } from './measurement';
import type { Verdict } from '../checks/verdict';

/** A problem and the reply behind it, for the report's request line. */
type Found = { line: string; reply: Reply };

/** One line each; identical ones are counted, not repeated. */
const counted = (lines: string[]) =>
  [...new Set(lines)].map((l) => [l, lines.filter((x) => x === l).length] as const).map(([l, n]) => (n > 1 ? `${l} (×${n})` : l));

/** The unit and range of each value one response gives (no comparison with other responses), and the limit they announce. */
export function checkValues(h: LimitHeaders, status: number, limits: RouteLimits) {
  const { own } = limits;
  const { kind, limit, wrong } = announcedPolicy(h, limits);
  const windowS = limit.windowSeconds;
  const problems = [...h.problems, ...(wrong ? [wrong] : [])];
  /** What holds but is worth saying (a 429 from a route's own limit under global headers with room). */
  const notes: string[] = [];
  if (h.remaining !== undefined && !(Number.isInteger(h.remaining) && h.remaining >= 0)) problems.push(`remaining ${h.remaining} is not a whole number >= 0`);
  // A served request is counted: it leaves at most limit - 1 (the limit it names; a wrong one is its own line).
  const named = h.limit ?? limit.max;
  if (h.remaining !== undefined && isServed(status) && h.remaining > named - 1)
    problems.push(`a served request says ${h.remaining} remain, more than limit - 1 (${named - 1})`);
  // On a route with its own limit, global headers with room left on a 429 say the route's limit refused.
  const roomOn429 = status === 429 && h.remaining !== undefined && h.remaining > 0;
  const byOwn = roomOn429 && !!own && kind === 'global';
  if (byOwn)
    notes.push(
      `a 429 from the route's own limit (${describeLimit(own)}) while its headers, which announce the global limit (${describeLimit(limit)}), showed room left: a server with several limits may report one, and a positive remaining count is no promise`,
    );
  else if (roomOn429) problems.push(`a 429 says ${h.remaining} requests remain`);
  if (h.reset !== undefined) {
    const header = h.resetHeader ?? 'reset';
    if (/^ratelimit/i.test(header) && h.resetUnit !== 'seconds-until')
      problems.push(`${header} ${h.resetRaw} is an epoch time; the IETF drafts define seconds until the reset`);
    else if (!(h.reset >= -1 && h.reset <= windowS + 1))
      problems.push(`${header} ${h.resetRaw} (${h.resetUnit}) puts the reset ${Math.round(h.reset)} s away; the window is ${windowS} s`);
  }
  if (status === 429 && h.retryAfter !== undefined) {
    // Retry-After tells when the limit that refused lets requests through again: within its window.
    const refusedS = byOwn ? own!.windowSeconds : windowS;
    if (!(h.retryAfter > 0)) problems.push(`Retry-After ${h.retryAfter} on a 429, but requests sent right after it were refused`);
    else if (h.retryAfter > refusedS + 1) problems.push(`Retry-After ${h.retryAfter} s on a 429 is longer than the ${refusedS} s window`);
  }
  return { kind, problems, notes };
}

type Read = { r: Reply; h: LimitHeaders; kind: PolicyKind };

/** What RL-6 reads of a measureLimit report. */
type BurstReport = {
  outcome: Outcome;
  measurements: Array<Pick<Measurement, 'replies' | 'confirmations' | 'baseFrom' | 'refusals' | 'served'>>;
  /** The request sent once a short wait the last 429 promised was due. */
  heeded?: Reply;
};

/**
 * RL-6 over the decisive burst (undefined when no reply carries a rate-limit header): every reply's values, then remaining across the
 * served replies, then what the 429s of every burst announced; `global`: the burst measured a route's own limit (`limit`), and its headers
 * may announce the global one instead. `sample`: the reply behind the first line.
 */
export function burstHeaderProblems(report: BurstReport, limit: Limit, global?: Limit) {
  const m = report.measurements[report.measurements.length - 1];
  const replies = [...m.replies, ...m.confirmations];
  if (!replies.some((r) => readLimitHeaders(r.headers).names.length)) return undefined;
  const limits = global ? { global, own: limit } : { global: limit };
  const found: Found[] = [];
  const notes: string[] = [];
  const read: Read[] = replies.map((r) => {
    const h = readLimitHeaders(r.headers, r.at);
    const values = checkValues(h, r.status, limits);
    found.push(...values.problems.map((line) => ({ line, reply: r })));
    notes.push(...values.notes);
    return { r, h, kind: values.kind };
  });
  const served = read.filter(({ r }) => isServed(r.status));
  const of = (kind: PolicyKind) => served.filter((x) => x.kind === kind);
  measuredWindow(of(global ? 'own' : 'global'), m, report.outcome, found);
  if (global) neverRises(of('global'), found);
  // A second burst after a waited window, or the request sent once a short promised wait was due, observes what the 429s announced.
  const everyReply = [...report.measurements.flatMap((x) => [...x.replies, ...x.confirmations]), ...(report.heeded ? [report.heeded] : [])];
  const broken = brokenAnnouncement(everyReply, !!global);
  if (broken) found.push({ line: describeBroken(broken), reply: broken.later });
  return { lines: counted(found.map((f) => f.line)), notes: counted(notes), sample: found[0]?.reply };
}

/** The window the burst measured: remaining falls by one per served request, to 0 at the limit. */
function measuredWindow(served: Read[], m: BurstReport['measurements'][number], o: Outcome, found: Found[]): void {
  const remaining = served.map(({ h }) => h.remaining).filter((n): n is number => n !== undefined);
  if (!remaining.length) return;
  const problem = (line: string) => found.push({ line, reply: served[0].r });
  // A refilling bucket may repeat a remaining value as often as it refilled.
  const refilled = o.kind === 'holds' ? (o.refilled ?? 0) : 0;
  // The burst reached the limit (a 429 after the served requests): the last one served leaves 0.
  const reachedLimit = (o.kind === 'holds' || o.kind === 'too-low' || o.kind === 'too-high') && m.refusals.length > 0;
  const repeats = remaining.length - new Set(remaining).size;
  if (repeats > refilled)
    problem(`remaining repeated ${repeats} time(s) over ${remaining.length} served requests: it does not fall by one per counted request`);
  const max = Math.max(...remaining);
  const min = Math.min(...remaining);
  // In a fresh window the first request leaves one less than the target served in all (its own limit).
  const first = m.served - refilled - 1;
  if (m.baseFrom === 'fresh' && reachedLimit && max !== first)
    problem(`the first request of a fresh window left ${max} remaining, but the target then served ${m.served - refilled} in all (so ${first} remained)`);
  if (reachedLimit && min !== 0) problem(`the last request served before the 429 left ${min} remaining, not 0`);
}

/** The global window seen from a route with its own limit: a request sent after another's answer leaves no more remaining, within one window. */
function neverRises(served: Read[], found: Found[]): void {
  for (const a of served) {
    if (a.h.remaining === undefined || a.h.reset === undefined) continue;
    const windowEnds = a.r.at + (a.h.reset - 1) * 1000;
    const later = served.find((b) => b.r.sentAt > a.r.at && b.r.sentAt < windowEnds && b.h.remaining !== undefined && b.h.remaining > a.h.remaining!);
    if (later)
      return void found.push({
        line: `the global remaining count rose from ${a.h.remaining} to ${later.h.remaining}, on a request sent after the answer that said ${a.h.remaining}, within the window its reset announced`,
        reply: later.r,
      });
  }
}

/** RL-6 on the decisive burst; `global`: the burst measured a route's own limit, and its headers may announce the global one instead. */
export function checkBurstHeaders(verdict: Verdict, report: LimitReport, limit: Limit, target: BurstTarget, global?: Limit): void {
  const problems = burstHeaderProblems(report, limit, global);
  if (!problems) return verdict.note('RL-6', 'the target sends no rate-limit headers (Retry-After, RateLimit-*, X-RateLimit-*): nothing to check');
  const { lines, notes, sample } = problems;
  for (const note of notes) verdict.note('RL-6', note);
  verdict.check({
    clause: 'RL-6',
    ok: lines.length === 0,
    title: 'rate-limit headers disagree with the window or with what the target did',
    received: lines,
    allowed: global
      ? `headers announce the route's own limit (${limit.max} per ${limit.windowSeconds} s: remaining falls by one per served request to 0 at the limit) or the global one (${global.max} per ${global.windowSeconds} s: remaining never rises within its window); reset and Retry-After within the announced window`
      : `limit = ${limit.max}; remaining falls by one per served request, from ${limit.max - 1} in a fresh window to 0 at the limit; reset within ${limit.windowSeconds} s (seconds until, or epoch seconds for X-RateLimit-Reset); Retry-After on a 429 from 1 to ${limit.windowSeconds} s`,
    exchange: sample && burstExchange(target, sample),
  });
}
