/** The shutdown judge: a correct agent is never failed; each way of getting the drain wrong is. */
import { expect, test } from '@playwright/test';
import { judgeShutdown } from '../../support/agent/shutdown-judge';
import type { ShutdownSample } from '../../support/agent/shutdown-watch';
import { SHUTDOWN_TIMING } from '../../support/agent/table';

const R = '/-/readiness';
const L = '/-/liveness';
const H = '/health';

/** Samples every `step` ms from `from` to `to` for each endpoint, answered 5 ms later with `status(path, t)`. */
function drain(to: number, status: (path: string, t: number) => number | string, from = 0, step = 30): ShutdownSample[] {
  const out: ShutdownSample[] = [];
  for (const path of [R, L, H]) {
    for (let t = from; t <= to; t += step) {
      const s = status(path, t);
      out.push(typeof s === 'number' ? { path, sentMs: t, answeredMs: t + 5, status: s } : { path, sentMs: t, answeredMs: t + 1, error: s });
    }
  }
  return out;
}

const correct = (path: string) => (path === R ? 503 : 200);
const failed = (samples: ShutdownSample[], still = false) => judgeShutdown({ samples, stillAnswering: still }).findings.filter((f) => !f.ok);

test('a correct agent passes, and the note says when readiness turned 503', () => {
  const samples = [...drain(1500, correct), ...drain(1590, () => 'ECONNREFUSED', 1530)];
  const j = judgeShutdown({ samples });
  expect(j.findings.filter((f) => !f.ok)).toEqual([]);
  expect(j.notes.join(' ')).toMatch(/readiness answered 503 to a request sent 0 ms after SIGTERM/);
});

test('readiness 200 within the signal grace is the signal on its way, not a fault', () => {
  const samples = drain(1500, (p, t) => (p === R && t <= SHUTDOWN_TIMING.signalGraceMs ? 200 : correct(p)));
  expect(failed(samples)).toEqual([]);
});

test('readiness 200 to a request sent after the grace fails AG-5', () => {
  const samples = drain(1500, (p, t) => (p === R && t < 300 ? 200 : correct(p)));
  const f = failed(samples);
  expect(f.map((x) => [x.clause, x.place])).toEqual([['AG-5', 'agent-readiness']]);
  expect(f[0].title).toMatch(/answered 200 to \d+ request\(s\) sent after SIGTERM, the first 1\d\d ms after it/);
});

test('readiness ready again after 503 fails, even within the grace', () => {
  const samples: ShutdownSample[] = [
    { path: R, sentMs: 5, answeredMs: 8, status: 503 },
    { path: R, sentMs: 40, answeredMs: 42, status: 200 },
    { path: R, sentMs: 400, answeredMs: 402, status: 503 },
    { path: L, sentMs: 5, answeredMs: 8, status: 200 },
    { path: H, sentMs: 5, answeredMs: 8, status: 200 },
  ];
  expect(failed(samples)[0].title).toMatch(/after it had already answered 503/);
});

test('an agent that exits at once without ever answering 503 fails AG-5', () => {
  const samples = drain(60, () => 'ECONNREFUSED');
  const f = failed(samples);
  expect(f.map((x) => x.clause)).toEqual(['AG-5']);
  expect(f[0].title).toMatch(/never answered 503.*exited at once/);
});

test('an agent that stays ready until it exits fails AG-5', () => {
  const samples = drain(1500, () => 200);
  expect(failed(samples).map((x) => x.clause)).toContain('AG-5');
});

test('liveness 503 during the drain fails AG-5 and AG-2 (liveness stays 200 until the exit); /health 503 fails AG-3', () => {
  expect(failed(drain(1500, (p) => (p === L ? 503 : correct(p)))).map((x) => [x.clause, x.place])).toEqual([
    ['AG-5', 'agent-liveness'],
    ['AG-2', 'agent-liveness'],
  ]);
  expect(failed(drain(1500, (p) => (p === H ? 503 : correct(p)))).map((x) => [x.clause, x.place])).toEqual([['AG-3', 'agent-health']]);
});

test('liveness dying only in the last 100 ms of the drain is caught', () => {
  expect(failed(drain(1500, (p, t) => (p === L && t > 1400 ? 503 : correct(p)))).map((x) => x.clause)).toEqual(['AG-5', 'AG-2']);
});

test('refused connections and timeouts are the exit (or a busy machine), never a failure by themselves', () => {
  const samples = drain(1500, (p, t) => (t > 700 && t < 800 ? 'TimeoutError' : t > 1200 ? 'ECONNREFUSED' : correct(p)));
  expect(failed(samples)).toEqual([]);
});

test('a drain longer than the watch is noted, not failed', () => {
  const j = judgeShutdown({ samples: drain(SHUTDOWN_TIMING.watchLimitMs, correct, 0, 500), stillAnswering: true });
  expect(j.findings.filter((f) => !f.ok)).toEqual([]);
  expect(j.notes.join(' ')).toMatch(/the watch stopped there/);
});

test('readiness answering something else than 503 while draining fails AG-5', () => {
  expect(failed(drain(1500, (p) => (p === R ? 500 : 200))).map((x) => x.clause)).toEqual(['AG-5', 'AG-5']);
});

test.describe('a watcher that stalled (its process busy elsewhere)', () => {
  const stalled = (samples: ShutdownSample[], atMs: number, forMs: number) => judgeShutdown({ samples, stalls: [{ atMs, forMs }] });
  // Nothing went out from +0 to +1845 ms; then every probe found the agent gone (the CI case).
  const unseen = [...drain(0, () => 200), ...drain(1905, () => 'closed without an answer', 1845)];

  test('before it saw the agent gone, without a 503 seen: undecided, no finding', () => {
    const j = stalled(unseen, 10, 1835);
    expect(j.inconclusive).toMatch(/stalled before it saw the agent gone \(1835 ms from \+10 ms/);
    expect(j.findings.filter((f) => !f.ok)).toEqual([]);
  });

  test('the same probes without a stall: the agent exited at once, AG-5 fails', () => {
    const j = judgeShutdown({ samples: unseen });
    expect(j.inconclusive).toBeUndefined();
    expect(j.findings.filter((f) => !f.ok).map((f) => f.clause)).toEqual(['AG-5']);
  });

  test('after readiness was seen answering 503: decided, and the hole is noted', () => {
    const samples = [...drain(1500, correct), ...drain(1590, () => 'ECONNREFUSED', 1530)];
    const j = stalled(samples, 600, 300);
    expect(j.inconclusive).toBeUndefined();
    expect(j.findings.filter((f) => !f.ok)).toEqual([]);
    expect(j.notes.join(' ')).toMatch(/stalled 300 ms from \+600 ms after SIGTERM: a change shorter than that may have gone unseen/);
  });

  test('only after the agent was seen gone: decided (the agent exited at once)', () => {
    const gone = drain(90, () => 'ECONNREFUSED');
    const j = stalled(gone, 200, 400);
    expect(j.inconclusive).toBeUndefined();
    expect(j.findings.filter((f) => !f.ok).map((f) => f.clause)).toEqual(['AG-5']);
  });

  test('a probe sent just before the stall and timed out by it is no sight of the agent gone', () => {
    // The answer waited in the buffer while the watcher was held; its timeout fired first on resuming.
    const samples: ShutdownSample[] = [
      { path: R, sentMs: 1.2, answeredMs: 13, status: 200 },
      { path: R, sentMs: 40.8, answeredMs: 1847, error: 'TimeoutError' },
      { path: R, sentMs: 1872, answeredMs: 1872.5, error: 'ECONNREFUSED' },
    ];
    const j = stalled(samples, 42, 1805);
    expect(j.inconclusive).toMatch(/stalled before it saw the agent gone/);
    expect(j.findings.filter((f) => !f.ok)).toEqual([]);
  });

  test('readiness 200 past the grace and no 503 seen, with a stall: the 200 fails AG-5, and nothing is left open to watch again', () => {
    const samples = [...drain(300, () => 200, 0, 30), ...drain(2000, () => 'ECONNREFUSED', 1950)];
    const j = stalled(samples, 320, 1500);
    expect(j.findings.filter((f) => !f.ok).map((f) => f.title)).toContainEqual(expect.stringMatching(/answered 200 to \d+ request\(s\) sent after SIGTERM/));
    expect(j.inconclusive).toBeUndefined();
    expect(j.notes).toContainEqual(expect.stringMatching(/never seen answering 503, but the watcher itself stalled/));
  });

  test('an answer holds whatever the stall: readiness 200 to a request that went out after the grace fails', () => {
    const samples = drain(900, (p, t) => (p === R && t < 600 ? 200 : correct(p)), 300);
    const j = stalled(samples, 0, 300);
    expect(j.findings.filter((f) => !f.ok).map((f) => f.title)).toContainEqual(expect.stringMatching(/answered 200 to \d+ request\(s\) sent after SIGTERM/));
  });
});
