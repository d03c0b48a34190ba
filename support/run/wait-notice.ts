/**
 * A wait long enough to look like a hang says why as it starts: one line on the test's standard output, which reporters get as it
 * is written (the console prints it at once; the HTML report keeps it with the test).
 */
const NOTICE_FROM_MS = 3000;

export function noticeWait(ms: number, why: string): void {
  if (ms >= NOTICE_FROM_MS) process.stdout.write(`waiting ${Math.round(ms / 1000)} s: ${why}\n`);
}
