/** The life judge: a correct agent is never failed, from its first answer to its exit; each way of getting a phase wrong is. */
import { expect, test } from '@playwright/test';
import { judgeLife } from '../../support/agent/life-judge';
import type { LifeSample, LifeWatch, WatchStall } from '../../support/agent/life-watch';

const R = '/-/readiness';
const L = '/-/liveness';
const H = '/health';
/** The port opens at +100, SIGTERM at +1000, the port closes at +1300 and the process exits at +1310. */
const OPEN = 100;
const SIGTERM = 1000;
const CLOSE = 1300;
const EXIT = 1310;

type Status = number | string;
/** What a correct agent answers at `t`: refused before it opens, readiness 503 until +200 and during the drain, the rest 200. */
const correct = (path: string, t: number): Status => (t < OPEN || t >= CLOSE ? 'ECONNREFUSED' : path === R && (t < 200 || t >= SIGTERM) ? 503 : 200);

/** Every endpoint asked every 20 ms from +0 to the exit, answered 3 ms later with `status(path, t)` (a string: the error). */
function life(status: (path: string, t: number) => Status = correct, more: Partial<LifeWatch> = {}): LifeWatch {
  const samples: LifeSample[] = [];
  for (let t = 0; t < EXIT; t += 20)
    for (const path of [R, L, H]) {
      const s = status(path, t);
      samples.push({ path, sentMs: t + 1, answeredMs: t + 4, ...(typeof s === 'number' ? { status: s } : { error: s }) });
    }
  return {
    samples,
    stalls: [],
    signal: { beforeMs: SIGTERM, afterMs: SIGTERM },
    exitMs: EXIT,
    endMs: EXIT + 5,
    stillAnswering: false,
    exitMarginMs: 500,
    ...more,
  };
}

const failed = (w: LifeWatch) => judgeLife(w).findings.map((f) => `${f.clause} ${f.place} ${f.valueClass}`);

test('a correct agent passes: refused before its port opens, readiness 503 while it starts and in the drain, refused just before its exit', () => {
  const j = judgeLife(life());
  expect(j.findings).toEqual([]);
  expect(j.notes[0]).toMatch(/port first answered at \+104 ms, ready at \+204 ms, SIGTERM at \+1000 ms, exit at \+1310 ms/);
});

test('readiness 200 from the first answer on passes too: the document is silent on the start-up, either 200 or 503 will do', () => {
  expect(failed(life((p, t) => (p === R && t >= OPEN && t < SIGTERM ? 200 : correct(p, t))))).toEqual([]);
});

test('liveness 503 to its first answer fails AG-2 in the start-up; /health 500 to one request fails AG-3', () => {
  expect(failed(life((p, t) => (p === L && t === OPEN ? 503 : correct(p, t))))).toEqual(['AG-2 agent-liveness starting']);
  expect(failed(life((p, t) => (p === H && t === 120 ? 500 : correct(p, t))))).toEqual(['AG-3 agent-health starting']);
});

test('readiness answering neither 200 nor 503 while the agent starts fails AG-1 (no answer the document gives readiness)', () => {
  const j = judgeLife(life((p, t) => (p === R && t >= OPEN && t < 200 ? 500 : correct(p, t))));
  expect(j.findings.map((f) => `${f.clause} ${f.valueClass}`)).toEqual(['AG-1 starting']);
  expect(j.findings[0]).toMatchObject({
    title: expect.stringMatching(/answered a status not allowed while the agent started/),
    received: expect.stringMatching(/^500 at /),
  });
});

test('readiness that flaps after it reported ready fails AG-1; liveness or /health failing for a moment in the steady state fails theirs', () => {
  expect(failed(life((p, t) => (p === R && t === 500 ? 503 : correct(p, t))))).toEqual(['AG-1 agent-readiness running']);
  expect(failed(life((p, t) => (p === H && t >= 500 && t < 560 ? 500 : correct(p, t))))).toEqual(['AG-3 agent-health running']);
  expect(failed(life((p, t) => (p === L && t === 700 ? 429 : correct(p, t))))).toEqual(['AG-2 agent-liveness running']);
});

test('a readiness request sent before SIGTERM and answered after it may say 503: the signal may have come first', () => {
  const w = life();
  w.samples.push({ path: R, sentMs: SIGTERM - 2, answeredMs: SIGTERM + 3, status: 503 });
  expect(failed(w)).toEqual([]);
});

test('the port refusing while the process lives on, in the steady state, fails each endpoint; in the drain, AG-5 and AG-2 / AG-3', () => {
  expect(failed(life((p, t) => (t >= 500 && t < 600 ? 'ECONNREFUSED' : correct(p, t))))).toEqual([
    'AG-1 agent-readiness running',
    'AG-2 agent-liveness running',
    'AG-3 agent-health running',
  ]);
  // SIGTERM at +600 and the listener closed at +700, 600 ms before the exit.
  expect(failed(life((p, t) => (t >= 700 ? 'ECONNREFUSED' : correct(p, t)), { signal: { beforeMs: 600, afterMs: 600 } }))).toEqual([
    'AG-5 agent-readiness draining',
    'AG-5 agent-liveness draining',
    'AG-2 agent-liveness draining',
    'AG-3 agent-health draining',
  ]);
});

test('a refusal is no failure when the exit came within the margin, or later only because the watcher stood still', () => {
  // Closed 300 ms before the exit: within the 500 ms margin.
  expect(failed(life((p, t) => (t >= SIGTERM + 10 ? 'ECONNREFUSED' : correct(p, t))))).toEqual([]);
  // Closed 600 ms before the exit event, but the watcher stalled 300 ms of that: the exit may have come that much sooner.
  const stalls: WatchStall[] = [{ atMs: 800, forMs: 300 }];
  expect(failed(life((p, t) => (t >= 700 ? 'ECONNREFUSED' : correct(p, t)), { stalls, signal: { beforeMs: 600, afterMs: 600 } }))).toEqual([]);
});

test('a refusal followed by an answer is the process alive through it, however soon the exit came', () => {
  // Refused from +500 to +600 and answering again; SIGTERM at +620, the exit at +700: well within the margin of the refusals.
  const w = life((p, t) => (t >= 500 && t < 600 ? 'ECONNREFUSED' : correct(p, t)), { signal: { beforeMs: 620, afterMs: 620 }, exitMs: 1310 });
  w.exitMarginMs = 5000;
  expect(failed(w)).toEqual(['AG-1 agent-readiness running', 'AG-2 agent-liveness running', 'AG-3 agent-health running']);
});

test('no exit by the end of the watch: the process lived at least that long', () => {
  const w = life((p, t) => (t >= SIGTERM + 10 ? 'ECONNREFUSED' : correct(p, t)), { exitMs: undefined, endMs: 2000 });
  expect(failed(w)).toContain('AG-3 agent-health draining');
  expect(judgeLife(w).findings[0].title).toMatch(/and no exit by \+2000 ms/);
});

test('refusals before the port first answered, and timeouts at any time, are never failures', () => {
  expect(failed(life((p, t) => (t < 150 ? 'ECONNREFUSED' : correct(p, t))))).toEqual([]);
  expect(failed(life((p, t) => (t >= 500 && t < 600 ? 'TimeoutError' : correct(p, t))))).toEqual([]);
});
