/** Rate-limit headers (RL-6): what a response says of the limit, whichever convention it follows, which limit that is, and when it lets the key through again. */
import { isServed, KEPT_HEADER, type Reply } from './burst';
import { headerValue } from '../http/transport';
import { formatWindow } from './custom-limits';
import type { Limit } from './measurement';

/** How a reset value was written: the IETF drafts use seconds until the reset; X-RateLimit-Reset also an epoch time. */
type ResetUnit = 'seconds-until' | 'epoch-seconds' | 'epoch-ms';

const FIRST_INT = /^\s*(-?\d+(?:\.\d+)?)/;

/** The policies of a list (RateLimit-Policy, or RateLimit-Limit with `;w=`): `600;w=60` (drafts 6-7), `"default";q=600;w=60` (8+). */
function policyItems(value: string | undefined) {
  if (!value) return [];
  return value.split(',').map((item) => {
    const [head, ...params] = item.split(';').map((p) => p.trim());
    const param = (key: string) => {
      const m = params.map((p) => /^(\w+)\s*=\s*(\d+)/.exec(p)).find((x) => x?.[1].toLowerCase() === key);
      return m ? Number(m[2]) : undefined;
    };
    const name = /^"([^"]*)"$/.exec(head)?.[1] ?? (/^[A-Za-z*][\w.:/*-]*$/.test(head) ? head : undefined);
    return { name, quota: /^\d+$/.test(head) ? Number(head) : param('q'), window: param('w') };
  });
}
const FAMILIES = ['x-ratelimit-', 'ratelimit-', 'x-rate-limit-'];

/** Epoch times this far from the response are read as such; nearer values are seconds from now. */
const EPOCH_SECONDS = 1e9;
const EPOCH_MS = 1e12;

/** Reads X-RateLimit-*, RateLimit-* (drafts 6-7), RateLimit/RateLimit-Policy (draft 8+) and Retry-After. */
export function readLimitHeaders(headers: Record<string, string>, receivedAt = Date.now()) {
  const h = (name: string) => headers[name] ?? headerValue(headers, name);
  const names = Object.keys(headers).filter((k) => KEPT_HEADER.test(k) && k.toLowerCase() !== 'content-type');
  const problems: string[] = [];
  const structured = h('ratelimit') ?? '';
  const field = (keys: string[], source = structured) => new RegExp(`(?:^|[;,\\s])(?:${keys.join('|')})=(\\d+)`, 'i').exec(source)?.[1];
  const number = (name: string, value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const m = FIRST_INT.exec(value);
    if (!m) problems.push(`${name} "${value}" is not a number`);
    return m ? Number(m[1]) : undefined;
  };
  // A value by its header in any of the three families, else from the RateLimit field (draft 8+): [the header it came from, the value].
  type Found = [header: string, value: string | undefined];
  const valueOf = (what: string, keys: string[], fallback?: string): Found =>
    FAMILIES.map((f): Found => [`${f}${what}`, h(`${f}${what}`)]).find(([, v]) => v !== undefined) ?? ['ratelimit', field(keys) ?? fallback];
  const policies = [...policyItems(h('ratelimit-policy')), ...policyItems(h('ratelimit-limit')?.includes(';') ? h('ratelimit-limit') : undefined)];
  // Draft 8+: RateLimit names the policy it reports (`"default";r=5;t=20`).
  const named = policyItems(structured)[0]?.name;
  const namedPolicy = named === undefined ? undefined : policies.find((p) => p.name === named);
  const quota = namedPolicy?.quota !== undefined ? String(namedPolicy.quota) : field(['q'], h('ratelimit-policy') ?? '');
  const limit = number(...valueOf('limit', ['limit', 'l'], quota));
  const policy = namedPolicy ?? policies.find((p) => p.quota === limit && p.window !== undefined) ?? (policies.length === 1 ? policies[0] : undefined);
  const [resetName, resetValue] = valueOf('reset', ['reset', 't']);
  const resetRaw = number(resetName, resetValue);
  let reset = resetRaw;
  let resetUnit: ResetUnit | undefined = resetRaw === undefined ? undefined : 'seconds-until';
  if (resetRaw !== undefined && resetRaw > EPOCH_MS) [reset, resetUnit] = [(resetRaw - receivedAt) / 1000, 'epoch-ms'];
  else if (resetRaw !== undefined && resetRaw > EPOCH_SECONDS) [reset, resetUnit] = [resetRaw - receivedAt / 1000, 'epoch-seconds'];
  let retryAfter: number | undefined;
  const ra = h('retry-after');
  if (ra !== undefined) {
    if (/^\s*-?\d+(\.\d+)?\s*$/.test(ra)) retryAfter = Number(ra);
    else if (!Number.isNaN(Date.parse(ra))) retryAfter = (Date.parse(ra) - receivedAt) / 1000;
    else problems.push(`retry-after "${ra}" is neither a number of seconds nor an HTTP date`);
  }
  return {
    limit,
    // The window of the policy the headers announce, in seconds (IETF `w=`), where they say it.
    ...(policy?.window !== undefined ? { window: policy.window } : {}),
    remaining: number(...valueOf('remaining', ['remaining', 'r'])),
    // Seconds from the response until the window resets, whatever unit the header used; the header, its value as sent, and that unit.
    reset,
    ...(resetRaw !== undefined ? { resetHeader: resetName, resetRaw, resetUnit } : {}),
    // Seconds (a date becomes seconds from the response).
    retryAfter,
    // The rate-limit headers present, and values that are not what their header calls for.
    names,
    problems,
  };
}

export type LimitHeaders = ReturnType<typeof readLimitHeaders>;

/** The global limit, and the route's own as its spec states it (none where only the global limit applies). */
export type RouteLimits = { global: Limit; own?: Limit };

export type PolicyKind = 'global' | 'own';

export const describeLimit = (l: Limit) => `${l.max} / ${formatWindow(l.windowSeconds)}`;

const named = (h: LimitHeaders) => (h.window === undefined ? `the limit header says ${h.limit}` : `the headers announce ${h.limit} per ${h.window} s`);

/**
 * Which limit the headers announce: the global one or the route's own (RL-4), by their limit value, their window `w=`, else by what their
 * remaining count and reset have room for. `wrong`: they announce a limit the route does not have, one line for RL-6 (they are then
 * judged against the route's nearest limit).
 */
export function announcedPolicy(h: LimitHeaders, limits: RouteLimits) {
  const { global, own } = limits;
  const candidates: Array<{ kind: PolicyKind; limit: Limit; wrong?: string }> = [
    ...(own ? [{ kind: 'own' as const, limit: own }] : []),
    { kind: 'global', limit: global },
  ];
  const fits = (l: Limit) => (h.limit === undefined || h.limit === l.max) && (h.window === undefined || h.window === l.windowSeconds);
  const matching = candidates.filter((c) => fits(c.limit));
  // Both limits fit what the headers name (none named, or the same value): the one that has room for the remaining count and the reset.
  const room = (l: Limit) => (h.remaining === undefined || h.remaining <= l.max) && (h.reset === undefined || h.reset <= l.windowSeconds + 1);
  const chosen = matching.find((c) => room(c.limit)) ?? matching[matching.length - 1];
  if (chosen) return chosen;
  const wrong = own
    ? `${named(h)}: neither the global limit (${describeLimit(global)}) nor the route's own (${describeLimit(own)})`
    : h.limit !== global.max
      ? `${named(h)}, the limit is ${global.max}`
      : `the headers announce a window of ${h.window} s, the window is ${global.windowSeconds} s`;
  return { ...candidates[0], wrong };
}

// A 429 promises when the key is served again (Retry-After, else the reset header, plus a second of rounding): a refusal after that, before any served answer, breaks it.
/** A value written in whole seconds may be up to one second short. */
export const ROUNDING_MS = 1000;

/** What a 429 announces; `retryAfterOnly` where a reset header may describe another limit (a route's own). */
export function announcementOf(r: Reply, retryAfterOnly = false) {
  if (r.status !== 429) return undefined;
  const h = readLimitHeaders(r.headers, r.at);
  const [seconds, header] = h.retryAfter !== undefined ? [h.retryAfter, 'Retry-After' as const] : [retryAfterOnly ? undefined : h.reset, 'reset' as const];
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return undefined;
  // endsAt: when the key should be served again, by the client's clock.
  return { refusal: r, seconds, header, endsAt: r.at + seconds * 1000 };
}

type Announcement = NonNullable<ReturnType<typeof announcementOf>>;
/** `later`: the request sent after the announced moment and refused again. */
type BrokenAnnouncement = Announcement & { later: Reply };

/** The first promise a later refusal broke, over replies of one key in any order. */
export function brokenAnnouncement(replies: Reply[], retryAfterOnly = false): BrokenAnnouncement | undefined {
  let promise: Announcement | undefined;
  for (const r of [...replies].filter((x) => x.status !== 0).sort((a, b) => a.sentAt - b.sentAt)) {
    if (isServed(r.status)) {
      promise = undefined;
      continue;
    }
    if (r.status !== 429) continue;
    if (promise && r.sentAt > promise.endsAt + ROUNDING_MS) return { ...promise, later: r };
    promise = announcementOf(r, retryAfterOnly) ?? promise;
  }
  return undefined;
}

export const describeBroken = (b: BrokenAnnouncement): string =>
  `a 429 announced ${b.seconds} s (${b.header}) until the key is served again, yet a request sent ${((b.later.sentAt - b.refusal.at) / 1000).toFixed(1)} s after it was refused again`;
