/**
 * Judging an agent's watched life apart from what the shutdown judge decides (the statuses after SIGTERM): the statuses of the
 * start-up and the steady state, and, in every phase, an endpoint that stopped answering while the process lived. Pure, so that
 * every timing case has a unit test. A failure rests on an answer received, or on a refused connection seen while the process
 * certainly lived: the port answered again before the exit, or the exit event came later than the refusal by the margin, the
 * watcher's own stalls in between not counted.
 */
import type { Check } from '../checks/failure';
import type { ClauseId } from '../document/clauses';
import type { LifeSample, LifeWatch, WatchStall } from './life-watch';
import { AGENT_ENDPOINTS, PHASE, READINESS_WHILE_STARTING, STOPPED_ANSWERING } from './table';

type Phase = (typeof PHASE)[keyof typeof PHASE];
export type LifeFinding = Check & { place: string; valueClass: Phase };

const ms = (n: number) => `${Math.round(n)} ms`;
const listed = (samples: readonly LifeSample[]) =>
  samples
    .slice(0, 5)
    .map((s) => `${s.status ?? s.error} at +${ms(s.sentMs)}`)
    .join(', ');

/** How long the watcher itself stood still between `from` and `to`. */
const stalledWithin = (stalls: readonly WatchStall[], from: number, to: number) =>
  stalls.reduce((sum, s) => sum + Math.max(0, Math.min(to, s.atMs + s.forMs) - Math.max(from, s.atMs)), 0);

export function judgeLife(w: LifeWatch): { findings: LifeFinding[]; notes: string[] } {
  const findings: LifeFinding[] = [];
  const notes: string[] = [];
  const signalMs = w.signal?.beforeMs ?? Infinity;
  const answered = w.samples.filter((s) => s.status !== undefined);
  const opened = answered.length ? Math.min(...answered.map((s) => s.answeredMs)) : undefined;
  const ready = answered.find((s) => s.path === '/-/readiness' && s.status === 200 && s.answeredMs < signalMs);
  /** The phase a request was sent in: before readiness was first seen 200, after it, or after SIGTERM. */
  const phaseOf = (s: LifeSample): Phase =>
    w.signal && s.sentMs >= w.signal.afterMs ? PHASE.draining : ready && s.sentMs > ready.answeredMs ? PHASE.running : PHASE.starting;
  // The exit as late as it is known to have come: when the watch ended, if it had not come by then.
  const exitMs = w.exitMs ?? w.endMs;
  /** The process lived on after a refusal: the port answered a request sent after it, before the exit; or the exit came well after it. */
  const aliveAfter = (s: LifeSample) =>
    answered.some((a) => a.sentMs > s.answeredMs && a.answeredMs < exitMs) ||
    exitMs - s.answeredMs - stalledWithin(w.stalls, s.answeredMs, exitMs) > w.exitMarginMs;

  for (const e of AGENT_ENDPOINTS) {
    const clausesIn = (phase: Phase): ClauseId[] =>
      phase !== PHASE.draining ? [e.clause] : e.draining.also ? [e.draining.clause, e.draining.also] : [e.draining.clause];
    const add = (phase: Phase, bad: LifeSample[], title: string, allowed: string) => {
      if (bad.length)
        for (const clause of clausesIn(phase)) findings.push({ clause, place: e.place, valueClass: phase, ok: false, title, received: listed(bad), allowed });
    };
    // Statuses before SIGTERM (a request sent before it and answered after included): the shutdown judge has the rest.
    const before = answered.filter((s) => s.path === e.path && s.sentMs < signalMs);
    for (const phase of [PHASE.starting, PHASE.running]) {
      const mine = before.filter((s) => phaseOf(s) === phase);
      const straddles = (s: LifeSample) => s.answeredMs >= signalMs;
      const allowed =
        e.draining.status === 200 ? () => [200] : (s: LifeSample) => (phase === PHASE.starting || straddles(s) ? READINESS_WHILE_STARTING : [200]);
      const bad = mine.filter((s) => !allowed(s).includes(s.status!));
      const what =
        e.draining.status === 200
          ? '200 from its first answer on'
          : phase === PHASE.starting
            ? `${READINESS_WHILE_STARTING.join(' or ')} until it first answered 200 (the document gives readiness no other answer)`
            : '200 from its first 200 until SIGTERM';
      add(
        phase,
        bad,
        phase === PHASE.starting
          ? `GET ${e.path} answered a status not allowed while the agent started (${bad.length} of ${mine.length} answers before readiness first answered 200)`
          : `GET ${e.path} answered a status not allowed while the agent ran, after readiness had answered 200 (${bad.length} of ${mine.length} answers before SIGTERM)`,
        what,
      );
    }
    // Stopped answering: a refusal to a request sent after the port was seen answering, while the process lived on.
    if (opened === undefined) continue;
    const gone = w.samples.filter((s) => s.path === e.path && s.sentMs > opened && STOPPED_ANSWERING.includes(s.error ?? '') && aliveAfter(s));
    for (const phase of Object.values(PHASE)) {
      const bad = gone.filter((s) => phaseOf(s) === phase);
      const first = bad[0];
      if (first)
        add(
          phase,
          bad,
          `GET ${e.path} stopped answering at +${ms(first.answeredMs)} while the agent's process lived, ${w.exitMs === undefined ? `and no exit by +${ms(w.endMs)}` : `the exit at +${ms(w.exitMs)}`} (${phase})`,
          `an answer until the process exits (an exit more than ${ms(w.exitMarginMs)} after a refused connection leaves it unexplained)`,
        );
    }
  }
  notes.push(
    `the agent's life, from its start: port first answered at +${opened === undefined ? 'never' : ms(opened)}, ready at +${ready ? ms(ready.answeredMs) : 'never'}, SIGTERM at +${w.signal ? ms(w.signal.beforeMs) : 'none'}, ${w.exitMs === undefined ? `no exit by +${ms(w.endMs)}` : `exit at +${ms(w.exitMs)}`} (${answered.length} answers, ${w.samples.length - answered.length} probes without one)`,
  );
  const early = w.stalls.filter((s) => s.atMs < signalMs);
  if (early.length)
    notes.push(
      `the watcher stalled before SIGTERM (${early.map((s) => `${ms(s.forMs)} from +${ms(s.atMs)}`).join(', ')}): a change shorter than that may have gone unseen`,
    );
  return { findings, notes };
}
