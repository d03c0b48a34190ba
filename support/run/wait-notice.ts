/**
 * A wait long enough to look like a hang says why as it starts: one line on the test's standard output, which reporters get as it
 * is written (the console prints it at once; the HTML report keeps it with the test). Requests sent at once wait at once: a wait for
 * the same reason that ends within the one already told of is not told again.
 */
const NOTICE_FROM_MS = 3000;
/** Rounding between waits that began together: they end within this of each other. */
const SAME_WAIT_MS = 1000;

/** The waits told of in this worker, by reason: when each ends. */
const told = new Map<string, number>();

export function noticeWait(ms: number, why: string): void {
  if (ms < NOTICE_FROM_MS) return;
  const ends = Date.now() + ms;
  if ((told.get(why) ?? 0) + SAME_WAIT_MS >= ends) return;
  told.set(why, ends);
  process.stdout.write(`waiting ${Math.round(ms / 1000)} s: ${why}\n`);
}
