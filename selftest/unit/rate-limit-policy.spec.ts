// RL-6 judged against the limit the headers announce (issue 23): on a route with a limit of its own,
// headers may describe that limit or the global one; a 429 from the stricter route limit while the
// global headers still show room is a note. Genuine disagreements still fail, on both kinds of route.
import { expect, test } from '@playwright/test';
import { announcedPolicy, readLimitHeaders } from '../../support/rate-limit/headers';
import { burstHeaderProblems, checkValues } from '../../support/rate-limit/header-checks';
import type { Reply } from '../../support/rate-limit/burst';

const GLOBAL = { max: 600, windowSeconds: 60 };
const OWN = { max: 5, windowSeconds: 10 };
const ROUTE = { global: GLOBAL, own: OWN };
const at = Date.parse('2026-08-18T12:00:00Z');

type Edit = (h: Record<string, string>, i: number, served: boolean) => void;

/**
 * The service: "5 requests / 10 seconds" on the route, X-RateLimit-* of the global window on
 * every answer (its remaining falls as the route's requests count there too), Retry-After of the route.
 */
function globalHeaderBurst(edit: Edit = () => {}): Reply[] {
  const replies: Reply[] = [];
  for (let i = 0; i < 9; i++) {
    const served = i < 5;
    const headers: Record<string, string> = { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': String(590 - i), 'x-ratelimit-reset': '55' };
    if (!served) headers['retry-after'] = '10';
    edit(headers, i, served);
    replies.push({ i, sentAt: at + 2 * i, at: at + 2 * i + 1, status: served ? 200 : 429, headers });
  }
  return replies;
}

/** The same route, its headers describing its own limit (remaining 4..0, then 0 on the 429s). */
const ownHeaderBurst = (edit: Edit = () => {}) =>
  globalHeaderBurst((h, i, served) => {
    Object.assign(h, { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': String(served ? 4 - i : 0), 'x-ratelimit-reset': '10' });
    edit(h, i, served);
  });

/** RL-6 over a burst of the route's own limit that reached it in a fresh window (`decided`), else of the global limit, not decided. */
const judged = (replies: Reply[], decided = true) =>
  burstHeaderProblems(
    {
      outcome: decided ? { kind: 'holds', limit: OWN.max } : { kind: 'inconclusive', why: '' },
      measurements: [{ replies, confirmations: [], baseFrom: decided ? 'fresh' : undefined, refusals: replies.filter((r) => r.status === 429), served: 5 }],
    },
    decided ? OWN : GLOBAL,
    decided ? GLOBAL : undefined,
  )!;

test.describe('which limit the headers announce', () => {
  const h = (headers: Record<string, string>) => readLimitHeaders(headers, at);
  test('by the limit value: the global one, the route own, or neither', () => {
    expect(announcedPolicy(h({ 'x-ratelimit-limit': '600' }), ROUTE)).toEqual({ kind: 'global', limit: GLOBAL });
    expect(announcedPolicy(h({ 'x-ratelimit-limit': '5' }), ROUTE)).toEqual({ kind: 'own', limit: OWN });
    expect(announcedPolicy(h({ 'x-ratelimit-limit': '700' }), ROUTE).wrong).toBe(
      "the limit header says 700: neither the global limit (600 / 60 seconds) nor the route's own (5 / 10 seconds)",
    );
    expect(announcedPolicy(h({ 'x-ratelimit-limit': '5' }), { global: GLOBAL }).wrong).toBe('the limit header says 5, the limit is 600');
  });
  test('without a limit header: the limit that has room for the remaining count and the reset', () => {
    expect(announcedPolicy(h({ 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '8' }), ROUTE).kind).toBe('own');
    expect(announcedPolicy(h({ 'x-ratelimit-remaining': '300', 'x-ratelimit-reset': '8' }), ROUTE).kind).toBe('global');
    expect(announcedPolicy(h({ 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '40' }), ROUTE).kind).toBe('global');
  });
  test('by the IETF window (w=) where the two limits share a value; a window the route does not have is wrong', () => {
    const same = { global: GLOBAL, own: { max: 600, windowSeconds: 3600 } };
    expect(announcedPolicy(h({ 'ratelimit-limit': '600', 'ratelimit-policy': '600;w=3600' }), same).kind).toBe('own');
    expect(announcedPolicy(h({ 'ratelimit-limit': '600', 'ratelimit-policy': '600;w=60' }), same).kind).toBe('global');
    expect(announcedPolicy(h({ 'ratelimit-limit': '600', 'ratelimit-policy': '600;w=10' }), { global: GLOBAL }).wrong).toBe(
      'the headers announce a window of 10 s, the window is 60 s',
    );
  });
  test('draft 8+: RateLimit names the policy it reports among several', () => {
    const read = h({ ratelimit: '"route";r=3;t=5', 'ratelimit-policy': '"global";q=600;w=60, "route";q=5;w=10' });
    expect(read).toMatchObject({ limit: 5, window: 10, remaining: 3, reset: 5 });
    expect(announcedPolicy(read, ROUTE).kind).toBe('own');
    expect(h({ 'ratelimit-limit': '600, 600;w=60, 5;w=10', 'ratelimit-remaining': '9' })).toMatchObject({ limit: 600, window: 60 });
  });
});

test.describe('RL-6 on a route with a limit of its own', () => {
  test("the issue's service: global headers, a 429 after the route's 5 with room left globally: a note, no failure", () => {
    const out = judged(globalHeaderBurst());
    expect(out.lines).toEqual([]);
    expect(out.notes).toEqual([
      "a 429 from the route's own limit (5 / 10 seconds) while its headers, which announce the global limit (600 / 60 seconds), showed room left: a server with several limits may report one, and a positive remaining count is no promise (×4)",
    ]);
  });
  test('global headers whose count stays put (the route does not count in the global window) pass too', () => {
    expect(judged(globalHeaderBurst((h) => (h['x-ratelimit-remaining'] = '590'))).lines).toEqual([]);
  });
  test('headers that announce the route own limit are held to it', () => {
    expect(judged(ownHeaderBurst()).lines).toEqual([]);
    expect(judged(ownHeaderBurst((h, i) => i === 2 && (h['x-ratelimit-remaining'] = '3'))).lines.join()).toMatch(/repeated 1 time/);
    expect(judged(ownHeaderBurst((h, _i, served) => !served && (h['x-ratelimit-remaining'] = '2'))).lines.join()).toMatch(/a 429 says 2 requests remain/);
    expect(judged(ownHeaderBurst((h) => (h['x-ratelimit-reset'] = '55'))).lines.join()).toMatch(/puts the reset 55 s away; the window is 10 s/);
  });
  test('global headers are held to the global window: a rising count, a reset beyond it, a wrong limit, an absurd Retry-After', () => {
    const rises = judged(globalHeaderBurst((h, i) => i === 3 && (h['x-ratelimit-remaining'] = '595')));
    expect(rises.lines.join()).toMatch(/global remaining count rose from 590 to 595, on a request sent after the answer that said 590/);
    expect(judged(globalHeaderBurst((h) => (h['x-ratelimit-reset'] = '600'))).lines.join()).toMatch(/puts the reset 600 s away; the window is 60 s/);
    expect(judged(globalHeaderBurst((h) => (h['x-ratelimit-remaining'] = '600'))).lines.join()).toMatch(/says 600 remain, more than limit - 1 \(599\)/);
    expect(judged(globalHeaderBurst((h) => (h['x-ratelimit-limit'] = '700'))).lines.join()).toMatch(/neither the global limit/);
    const zero = judged(globalHeaderBurst((h, _i, served) => !served && (h['retry-after'] = '0')));
    expect(zero.lines.join()).toMatch(/Retry-After 0 on a 429/);
    const long = judged(globalHeaderBurst((h, _i, served) => !served && (h['retry-after'] = '600')));
    // The route's own limit refused (the global headers show room): its window bounds the wait.
    expect(long.lines.join()).toMatch(/Retry-After 600 s on a 429 is longer than the 10 s window/);
    expect(judged(globalHeaderBurst((h, _i, served) => !served && (h['retry-after'] = '30'))).lines.join()).toMatch(/Retry-After 30 s .* 10 s window/);
    // Global headers at 0 on a 429: the global limit may have refused, its window bounds the wait.
    const globalRefusal = globalHeaderBurst((h, _i, served) => !served && Object.assign(h, { 'x-ratelimit-remaining': '0', 'retry-after': '50' }));
    expect(judged(globalRefusal).lines).toEqual([]);
  });
  test('a count that may have turned over (its reset says the window ends first) is not compared', () => {
    const replies = globalHeaderBurst((h, i) => {
      h['x-ratelimit-reset'] = '1';
      if (i === 3) h['x-ratelimit-remaining'] = '599';
    });
    expect(judged(replies).lines).toEqual([]);
  });
});

test.describe('RL-6 on a route under the global limit alone', () => {
  test('a 429 whose headers show room left is a lie there, not a note', () => {
    const out = judged(globalHeaderBurst(), false);
    expect(out.lines.join()).toMatch(/a 429 says 585 requests remain/);
    expect(out.notes).toEqual([]);
  });
  test('one response on its own: the same rule', () => {
    const h = readLimitHeaders({ 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': '30' }, at);
    const out = checkValues(h, 429, { global: GLOBAL });
    expect(out.kind).toBe('global');
    expect(out.problems).toEqual(['a 429 says 12 requests remain']);
    const routed = checkValues(h, 429, ROUTE);
    expect([routed.problems, routed.notes.length]).toEqual([[], 1]);
  });
});
