/**
 * Recovery (RL-5) as a client that heeds the headers meets it: exhaust the key, ask once mid-window (refused by any correct limiter),
 * wait until the end the latest 429 announced, then ask until served or a window and a bit have passed; then RL-1 in a later window.
 */
import { noticeWait } from '../run/wait-notice';
import { isServed, sendOne, sleep, type BurstTarget, type Reply } from './burst';
import { announcementOf, ROUNDING_MS } from './headers';
import { exhaust, windowMargin, type Limit } from './measurement';

/** Waits as the latest 429 says when plausible, else a window from `since`, then asks until served, at most a window and a bit after `since`. */
async function askUntilServed(target: BurstTarget, limit: Limit, before: Reply[], since: number) {
  const windowMs = limit.windowSeconds * 1000;
  const latest = before.filter((r) => r.status === 429).sort((x, y) => y.at - x.at)[0];
  const a = latest && announcementOf(latest);
  const plausible = a && a.seconds > 0 && a.seconds <= limit.windowSeconds + 1;
  const waitMs = (plausible ? a.endsAt + ROUNDING_MS : since + windowMs) + 100 - Date.now();
  noticeWait(waitMs, `RL-5: the key is limited; asking again after ${plausible ? `the ${a.seconds} s its latest 429 announced` : 'a window'}`);
  await sleep(waitMs);
  const waited = plausible
    ? `the latest 429 announced ${a.seconds} s (${a.header}): asked ${ROUNDING_MS / 1000} s after that`
    : 'no plausible announced wait: asked a window after the limit was reached';
  const step = Math.max(100, Math.min(1000, windowMs / 20));
  const giveUpAt = since + windowMs + windowMargin(windowMs) + 1500;
  const probes = [await sendOne(target)];
  while (!isServed(probes[probes.length - 1].status) && Date.now() < giveUpAt) {
    await sleep(step);
    probes.push(await sendOne(target));
  }
  return { probes, served: probes.find((r) => isServed(r.status)), waited };
}

const firstRefusal = (replies: Reply[]) => replies.find((r) => !isServed(r.status) && r.status !== 0);

/**
 * `replies`: every request of the test in the order sent (a still limited key waited out, the burst, the rest); `refusal`: the first refusal
 * of the burst that reached the limit (the window's own), or of the key still limited before it, none when the limit was never reached;
 * `served`: the one served again, if any was (the last sent); `waited`: how the last wait was decided.
 */
export async function watchRecovery(target: BurstTarget, limit: Limit) {
  const windowMs = limit.windowSeconds * 1000;
  const replies: Reply[] = [];
  let run = (await exhaust(target, limit)).replies;
  replies.push(...run);
  let refusal = firstRefusal(run);
  if (!refusal) return { replies };
  // Still limited by an earlier test: its window's start is unknown, so wait it out and fill one of our own.
  if (!run.some((r) => isServed(r.status))) {
    const before = await askUntilServed(target, limit, run, refusal.at);
    replies.push(...before.probes);
    if (!before.served) return { replies, refusal, waited: before.waited };
    run = (await exhaust(target, limit)).replies;
    replies.push(...run);
    refusal = firstRefusal(run);
    if (!refusal) return { replies };
  }
  const limitedAt = refusal.at;
  // In the middle of the window, or when the first 429 says the key is served again if that is sooner.
  const first = announcementOf(refusal);
  const heedAt = first ? first.endsAt + ROUNDING_MS + 100 : Infinity;
  await sleep(Math.min(limitedAt + windowMs / 2, heedAt) - Date.now());
  const midWindow = await sendOne(target);
  replies.push(midWindow);
  if (isServed(midWindow.status)) return { replies, refusal, served: midWindow, waited: 'served when asked again within the window' };
  const after = await askUntilServed(target, limit, [...run, midWindow], limitedAt);
  replies.push(...after.probes);
  return { replies, refusal, served: after.served, waited: after.waited };
}
