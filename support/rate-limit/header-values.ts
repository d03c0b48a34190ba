/**
 * RL-6 on one response: each rate-limit value in its family's unit, judged against the limit the headers announce (policy.ts).
 * Each problem is one line; identical ones are counted, not repeated.
 */
import { isServed, type Reply } from './burst';
import type { LimitHeaders } from './headers';
import type { Limit } from './measurement-types';
import { announcedPolicy, describeLimit, type Announced, type RouteLimits } from './policy';

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

/** The route's limits: a bare limit is a route under the global limit alone. */
const routeLimits = (l: Limit | RouteLimits): RouteLimits => ('global' in l ? l : { global: l });

/** The unit and range of each value one response gives (no comparison with other responses); returns the limit they announce. */
export function checkValues(h: LimitHeaders, status: number, limits: Limit | RouteLimits, out: HeaderProblems, reply?: Reply): Announced {
  const { own } = routeLimits(limits);
  const announced = announcedPolicy(h, routeLimits(limits));
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
  const byOwn = !!own && announced.kind === 'global' && status === 429 && h.remaining !== undefined && h.remaining > 0;
  if (status === 429 && h.remaining !== undefined && h.remaining > 0) {
    if (byOwn)
      out.notes.add(
        `a 429 from the route's own limit (${describeLimit(own)}) while its headers, which announce the global limit (${describeLimit(limit)}), showed room left: a server with several limits may report one, and a positive remaining count is no promise`,
        reply,
      );
    else out.add(`a 429 says ${h.remaining} requests remain`, reply);
  }
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
