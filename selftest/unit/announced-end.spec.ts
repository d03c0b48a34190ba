// RL-6 where a window end is observed (support/rate-limit/headers.ts): a 429's announced end is a
// promise to a client that heeds it; only a refusal sent after it (and a second of rounding) breaks it.
import { expect, test } from '@playwright/test';
import { brokenAnnouncement } from '../../support/rate-limit/headers';
import type { Reply } from '../../support/rate-limit/burst';

let i = 0;
/** A reply sent at `at` seconds (answered 10 ms later), with the headers given. */
const reply = (at: number, status: number, headers: Record<string, string> = {}): Reply => ({
  i: i++,
  sentAt: at * 1000,
  at: at * 1000 + 10,
  status,
  headers,
});

test('a refusal after the announced wait breaks the promise; one within its rounding second does not', () => {
  const first = reply(0, 429, { 'retry-after': '2' });
  expect(brokenAnnouncement([first, reply(2.9, 429)])).toBeUndefined();
  const b = brokenAnnouncement([first, reply(3.1, 429)]);
  expect(b && { refusal: b.refusal, seconds: b.seconds, header: b.header }).toEqual({ refusal: first, seconds: 2, header: 'Retry-After' });
});

test('served early breaks nothing; once served, an older promise no longer stands', () => {
  expect(brokenAnnouncement([reply(0, 429, { 'retry-after': '5' }), reply(1, 200)])).toBeUndefined();
  expect(brokenAnnouncement([reply(0, 429, { 'retry-after': '1' }), reply(1.5, 200), reply(9, 429)])).toBeUndefined();
});

test('a refusal before the announced end may announce anew: the newest promise is the one judged', () => {
  // A limiter that counts refusals moves its end and says so: no broken promise.
  const moved = [reply(0, 429, { 'retry-after': '4' }), reply(2, 429, { 'retry-after': '4' }), reply(5.5, 429)];
  expect(brokenAnnouncement(moved)).toBeUndefined();
  // One that moves it and still announces the old end breaks its second promise.
  const lying = [reply(0, 429, { 'retry-after': '4' }), reply(2, 429, { 'retry-after': '2' }), reply(5.5, 429)];
  expect(brokenAnnouncement(lying)?.refusal.sentAt).toBe(2000);
});

test('without Retry-After the reset header announces; on a route of its own only Retry-After does', () => {
  const replies = [reply(0, 429, { 'x-ratelimit-reset': '1' }), reply(3, 429)];
  expect(brokenAnnouncement(replies)?.header).toBe('reset');
  expect(brokenAnnouncement(replies, true)).toBeUndefined();
});

test('replies in any order are read by when they were sent; unanswered ones are no refusal', () => {
  const replies = [reply(4, 429), reply(0, 429, { 'retry-after': '1' }), { ...reply(3, 0), error: 'reset' }];
  expect(brokenAnnouncement(replies)?.later.sentAt).toBe(4000);
});
