/** What one burst means (its shape), read against the window before it, the target's headers, a refill probe and another key. */
import { isServed, sendOne, sleep, type BurstRun, type BurstTarget, type Reply } from './burst';
import { readLimitHeaders } from './headers';
import { describePrior } from './known-prior';
import type { Limit, MeasureOptions, Measurement, Outcome, Shape } from './measurement';

/** A few more than the limit, with no refill after the 429: a wrong limit (a window that turned over mid-burst serves many more). */
export const smallExcess = (limit: Limit) => Math.max(1, Math.ceil(limit.max / 100));

/**
 * What the served replies' remaining headers say of the window before the burst (undefined when they carry none): `counted`, what the
 * target had counted before it (limit - highest remaining - 1); `consistent`, remaining fell by one per served request, to 0 at the last.
 */
export function headerCount(replies: Reply[]) {
  const served = replies.filter((r) => isServed(r.status)).map((r) => readLimitHeaders(r.headers, r.at));
  const remaining = served.map((h) => h.remaining).filter((n): n is number => n !== undefined);
  if (!remaining.length || remaining.length !== served.length) return undefined;
  const limit = served.find((h) => h.limit !== undefined)?.limit;
  const remainingMax = Math.max(...remaining);
  const consistent = Math.min(...remaining) === 0 && remainingMax + 1 === served.length && new Set(remaining).size === served.length;
  return { limit, remainingMax, counted: limit === undefined ? undefined : limit - remainingMax - 1, consistent };
}

/** After the first 429 a refilling limiter serves again within a few periods and a window does not: the confirmations and a few probes tell. */
async function probeRefill(target: BurstTarget, limit: Limit, run: BurstRun) {
  const periodMs = (limit.windowSeconds * 1000) / limit.max;
  const spanMs = Math.min(2000, Math.max(100, 3 * periodMs));
  const stepMs = Math.max(10, spanMs / 6);
  const replies: Reply[] = [];
  let served = run.confirmations.filter((r) => isServed(r.status)).length;
  const until = Date.now() + spanMs;
  while (!served && Date.now() < until) {
    await sleep(stepMs);
    const r = await sendOne(target);
    replies.push(r);
    if (isServed(r.status)) served++;
  }
  // A bucket has refilled a token or so; a window that has just turned over serves on and on.
  let turnedOver = false;
  if (served) {
    const next = [await sendOne(target), await sendOne(target)];
    replies.push(...next);
    turnedOver = next.every((r) => isServed(r.status));
  }
  const first = Math.min(...run.replies.map((r) => r.sentAt));
  const last = Math.max(first, ...run.replies.filter((r) => isServed(r.status)).map((r) => r.sentAt));
  // allowance: the tokens a bucket refilling at limit/window would have added while the burst was served.
  return { probes: run.confirmations.length + replies.length, served, allowance: Math.floor((last - first) / periodMs) + 1, turnedOver, replies };
}

/**
 * What one burst means: its shape (on `m`), and the outcome it decides together with the measurements before it, or undefined when another
 * (clean) measurement is needed. Requests it sends to tell the shape (another key, refill probes) go to `extra`, for the caller's count.
 */
export async function assess(m: Measurement, earlier: Measurement[], options: MeasureOptions, extra: Reply[]): Promise<Outcome | undefined> {
  const { limit } = options;
  const clean = m.attempt > 1;
  const settle = (shape: Shape, why?: string, outcome?: Outcome) => {
    m.shape = shape;
    if (why) m.why = why;
    return outcome;
  };
  // No refusal at all (confirmations follow one only): no limit up to the bound, or a target that did not answer.
  if (!m.refusals.length) {
    if (m.errors.length || m.replies.length < m.bound) return settle('broken');
    // Within less than a window, a correct limiter serves at most twice its limit, whatever its algorithm.
    return settle('none', undefined, m.durationMs < limit.windowSeconds * 1000 ? { kind: 'no-limit', sent: m.replies.length, ms: m.durationMs } : undefined);
  }
  const wrong = m.refusals.find((r) => r.status !== 429);
  if (wrong) return settle('wrong-status', undefined, { kind: 'wrong-status', status: wrong.status, served: m.served });
  const hc = headerCount(m.replies);
  // Trusted where the headers agree with what the target did and name the configured limit.
  const counted = hc?.consistent && hc.limit === limit.max ? hc.counted : undefined;
  if (m.known.count === 0) {
    m.base = 0;
    m.baseFrom = 'fresh';
  } else if (counted !== undefined && counted >= 0 && counted <= m.known.count) {
    m.base = counted;
    m.baseFrom = 'headers';
    m.notes.push(`the target's headers say ${counted} of the suite's ${m.known.count} earlier request(s) with the key counted`);
  } else {
    const headers = !hc
      ? m.served === 0
        ? 'not one request of the burst was served, so no headers tell'
        : 'it sends no remaining/limit headers that would tell'
      : counted === undefined
        ? `its headers do not settle it (${hc.consistent ? `limit header ${hc.limit ?? 'absent'}, configured ${limit.max}` : 'remaining did not fall by one per served request to 0'})`
        : `its headers say ${counted} counted, more than the suite sent`;
    return settle('ambiguous', `the key's window was not fresh: ${describePrior(m.known)}; whether the target counts them is not documented, and ${headers}`);
  }
  const base = m.base;
  const total = m.served + base;
  const servedAgain = m.confirmations.filter((r) => isServed(r.status)).length;
  if (servedAgain) m.notes.push(`${servedAgain} of ${m.confirmations.length} requests sent one by one after the first 429 were served again`);
  if (m.errors.length && total <= limit.max && limit.max <= total + m.errors.length)
    return settle('ambiguous', `${m.errors.length} request(s) got no response (${m.errors[0]}): the target may or may not have counted them`);
  if (total === limit.max) return settle('exact', undefined, { kind: 'holds', limit: limit.max });
  if (total < limit.max) {
    // The headers say the window held requests the suite did not send: a run seconds before, another client.
    if (m.baseFrom === 'fresh' && counted !== undefined && counted > 0) {
      if (clean && options.exclusive !== false) m.phantom = counted;
      // Seen again in the next quiet window, with the key nothing else uses, a count of requests nobody sent is the target's.
      const before = earlier[earlier.length - 1];
      return settle(
        'ambiguous',
        `the target's headers say ${counted} request(s) had been counted before the burst, none of them the suite's in this window: not a fresh window (a run shortly before?)`,
        m.phantom && before?.phantom && before.served === m.served ? { kind: 'too-low', served: m.served, base: 0 } : undefined,
      );
    }
    if (!clean && m.baseFrom === 'fresh' && options.exclusive === false)
      return settle(
        'ambiguous',
        'the only key may have been used within the window by another run or shard (this run sent nothing with it before the burst), and no headers say so',
      );
    if (!clean && options.otherKey) {
      const other = await sendOne(options.otherKey);
      extra.push(other);
      if (other.status !== 429) m.notes.push('another key was still served right after the burst');
      else
        return settle(
          'ambiguous',
          `another key was refused too right after the burst: the limit seems counted per client address or per account, so the window held the suite's other requests`,
        );
    }
    return settle('fewer', undefined, { kind: 'too-low', served: m.served, base });
  }
  // More than the limit: a refilling bucket serves again within a few of its periods after its 429, a window does not.
  const excess = total - limit.max;
  const refill = await probeRefill(options.target, limit, m);
  extra.push(...refill.replies);
  m.notes.push(`${refill.served} of ${refill.probes} refill probe(s) served`);
  // Sure, or else only when two fresh windows agree.
  const more = (why?: string): Outcome | undefined => {
    settle('more', why);
    const fresh = [...earlier, m].filter((x) => x.shape === 'more' && x.baseFrom === 'fresh');
    if (!why) return { kind: 'too-high', served: [m.served], base };
    return fresh.length >= 2 ? { kind: 'too-high', served: fresh.map((x) => x.served), base: 0 } : undefined;
  };
  if (refill.turnedOver) return more(`${excess} more than the limit, and right after the 429 requests were served on and on: a window turned over`);
  if (refill.served && m.known.count > 0)
    return settle(
      'ambiguous',
      `${excess} more than the limit, then served again soon after the 429: a refilling limiter, or the suite's earlier requests leaving a sliding window`,
    );
  if (refill.served && excess <= refill.allowance) {
    m.notes.push(
      `${excess} more than the limit were served while the burst ran, and the limiter served again soon after its 429: a refilling bucket (up to ${refill.allowance} tokens in that time)`,
    );
    return settle('exact', undefined, { kind: 'holds', limit: limit.max, refilled: excess });
  }
  // A few more with no refill is the limit; many more may be a window that turned over mid-burst.
  const unsure = excess > smallExcess(limit) || refill.served;
  return more(
    unsure
      ? `${excess} more than the limit were served: a wrong limit, or a window that turned over mid-burst; seen in two fresh windows it is the limit`
      : undefined,
  );
}
