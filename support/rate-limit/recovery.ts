/**
 * Recovery (RL-5) as a client that heeds the headers meets it: the key is exhausted, asks once more in
 * the middle of the window (refused by every correct limiter, which keeps its window's end whatever it
 * counts), waits until the end the latest 429 announced (plus a second of rounding), then asks until it
 * is served or a window and a bit have passed since the limit was reached. A limiter whose refusals
 * restart the window while its headers announce the old end is refused after the announced end (RL-6,
 * announced-end.ts) and, asked on, never served again (RL-5).
 */
import { isServed, sendOne, type BurstTarget, type Reply } from './burst';
import { announcementOf, ROUNDING_MS } from './announced-end';
import { exhaust, sleep, windowMargin, type Limit } from './measurement';

export interface Recovery {
  /** The burst that reached the limit, and its first refusal. */
  exhausted: Reply[];
  refusal: Reply;
  /** The request sent in the middle of the window. */
  midWindow: Reply;
  /** The requests after the wait, the last one served if any was. */
  probes: Reply[];
  served?: Reply;
  /** Why the first probe was sent when it was. */
  waited: string;
}

/** Undefined when the limit was never reached (`sent` requests). */
export async function watchRecovery(target: BurstTarget, limit: Limit): Promise<Recovery | { sent: number }> {
  const windowMs = limit.windowSeconds * 1000;
  const run = await exhaust(target, limit);
  const refusal = run.replies.find((r) => !isServed(r.status) && r.status !== 0);
  if (!refusal) return { sent: run.replies.length };
  const limitedAt = refusal.at;
  await sleep(limitedAt + windowMs / 2 - Date.now());
  const midWindow = await sendOne(target);
  const probes: Reply[] = [];
  if (isServed(midWindow.status))
    return { exhausted: run.replies, refusal, midWindow, probes, served: midWindow, waited: 'served in the middle of the window' };
  const latest = [...run.replies, midWindow].filter((r) => r.status === 429).sort((a, b) => b.at - a.at)[0];
  const a = latest && announcementOf(latest);
  // Wait as the latest 429 says when that is plausible, else a window from the limit.
  const plausible = a && a.seconds > 0 && a.seconds <= limit.windowSeconds + 1;
  const firstAt = plausible ? a.endsAt + ROUNDING_MS + 100 : limitedAt + windowMs + 100;
  const waited = plausible
    ? `the latest 429 announced ${a.seconds} s (${a.header}): asked ${ROUNDING_MS / 1000} s after that`
    : 'no plausible announced wait: asked a window after the limit was reached';
  await sleep(firstAt - Date.now());
  const step = Math.max(100, Math.min(1000, windowMs / 20));
  const giveUpAt = limitedAt + windowMs + windowMargin(windowMs) + 1500;
  for (;;) {
    const probe = await sendOne(target);
    probes.push(probe);
    if (isServed(probe.status)) return { exhausted: run.replies, refusal, midWindow, probes, served: probe, waited };
    if (Date.now() >= giveUpAt) return { exhausted: run.replies, refusal, midWindow, probes, waited };
    await sleep(step);
  }
}
