/**
 * RL-6: which limit a response's headers announce, the global one or the route's own (RL-4), by their limit value, their window `w=`,
 * or else by what their remaining count and reset have room for.
 */
import type { LimitHeaders } from './headers';
import type { Limit } from './measurement-types';
import { formatWindow } from './custom-limits';

export interface RouteLimits {
  global: Limit;
  /** The route's own limit, as its spec states it; none where only the global limit applies. */
  own?: Limit;
}

export type PolicyKind = 'global' | 'own';

export interface Announced {
  kind: PolicyKind;
  limit: Limit;
  /** The headers announce a limit the route does not have: one line for RL-6 (they are then judged against the route's nearest limit). */
  wrong?: string;
}

export const describeLimit = (l: Limit) => `${l.max} / ${formatWindow(l.windowSeconds)}`;

const named = (h: LimitHeaders) => (h.window === undefined ? `the limit header says ${h.limit}` : `the headers announce ${h.limit} per ${h.window} s`);

export function announcedPolicy(h: LimitHeaders, limits: RouteLimits): Announced {
  const { global, own } = limits;
  const candidates: Array<{ kind: PolicyKind; limit: Limit }> = own
    ? [
        { kind: 'own', limit: own },
        { kind: 'global', limit: global },
      ]
    : [{ kind: 'global', limit: global }];
  const fits = (l: Limit) => (h.limit === undefined || h.limit === l.max) && (h.window === undefined || h.window === l.windowSeconds);
  const matching = candidates.filter((c) => fits(c.limit));
  // Both limits fit what the headers name (none named, or the same value): the one that has room for the remaining count and the reset.
  const room = (l: Limit) => (h.remaining === undefined || h.remaining <= l.max) && (h.reset === undefined || h.reset <= l.windowSeconds + 1);
  const chosen = matching.find((c) => room(c.limit)) ?? matching[matching.length - 1];
  if (chosen) return chosen;
  const nearest = candidates[0];
  if (!own) {
    const what =
      h.limit !== global.max
        ? `${named(h)}, the limit is ${global.max}`
        : `the headers announce a window of ${h.window} s, the window is ${global.windowSeconds} s`;
    return { ...nearest, wrong: what };
  }
  return { ...nearest, wrong: `${named(h)}: neither the global limit (${describeLimit(global)}) nor the route's own (${describeLimit(own)})` };
}
