/**
 * RL-6 where a window end is observed: a 429 promises when the key is served again (Retry-After, else the reset header, plus a second
 * of rounding); a refusal after that moment, before any served answer, breaks the promise (the latest 429's is the one judged).
 */
import { isServed, type Reply } from './burst';
import { readLimitHeaders } from './headers';

/** A value written in whole seconds may be up to one second short. */
export const ROUNDING_MS = 1000;

interface Announcement {
  refusal: Reply;
  seconds: number;
  header: 'Retry-After' | 'reset';
  /** When the key should be served again, by the client's clock. */
  endsAt: number;
}

interface BrokenAnnouncement extends Announcement {
  /** The request sent after the announced moment and refused again. */
  later: Reply;
}

/** What a 429 announces; `retryAfterOnly` where a reset header may describe another limit (a route's own). */
export function announcementOf(r: Reply, retryAfterOnly = false): Announcement | undefined {
  if (r.status !== 429) return undefined;
  const h = readLimitHeaders(r.headers, r.at);
  const [seconds, header] = h.retryAfter !== undefined ? [h.retryAfter, 'Retry-After' as const] : [retryAfterOnly ? undefined : h.reset, 'reset' as const];
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return undefined;
  return { refusal: r, seconds, header, endsAt: r.at + seconds * 1000 };
}

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
