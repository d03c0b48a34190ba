/**
 * Judging a watched shutdown from the probes' send times, pure so that every timing case has a unit test; a correct agent is never failed.
 * What no answer says rests on the watcher having looked: a stall where only seeing could tell makes the judgement inconclusive, never a finding.
 */
import type { ClauseId } from '../document/clauses';
import type { Check } from '../checks/failure';
import { AGENT_ENDPOINTS, SHUTDOWN_TIMING as timing } from './table';
import type { ShutdownSample, ShutdownWatch, WatchStall } from './shutdown-watch';

const describeStalls = (stalls: readonly WatchStall[]) => stalls.map((s) => `${Math.round(s.forMs)} ms from +${Math.round(s.atMs)} ms`).join(', ');

const ms = (n: number) => `${Math.round(n)} ms`;

/** The first five answers, each with when its request was sent. */
const listed = (answers: readonly ShutdownSample[]) =>
  answers
    .slice(0, 5)
    .map((s) => `${s.status} at +${ms(s.sentMs)}`)
    .join(', ');

/** The checks of AG-5 (and of the clauses the endpoints also answer to), notes, and why the watch could not decide AG-5 when nothing else was found. */
export function judgeShutdown({ samples, stillAnswering = false, stalls = [] }: Partial<ShutdownWatch> & Pick<ShutdownWatch, 'samples'>) {
  // Checks of AG-5 (or of the clause the endpoint also answers to), each with the endpoint's place.
  const findings: Array<Check & { place: string }> = [];
  const notes: string[] = [];
  let inconclusive: string | undefined;
  const answers = samples.filter((s) => s.status !== undefined).sort((a, b) => a.sentMs - b.sentMs);
  const lastAnswer = answers.length ? Math.max(...answers.map((s) => s.answeredMs)) : undefined;

  for (const e of AGENT_ENDPOINTS) {
    const mine = answers.filter((s) => s.path === e.path);
    const add = (ok: boolean, title: string, received: string, allowed: string, also?: ClauseId) => {
      for (const clause of also ? [e.draining.clause, also] : [e.draining.clause]) findings.push({ clause, place: e.place, ok, title, received, allowed });
    };
    if (e.draining.status === 200) {
      const bad = mine.filter((s) => s.status !== 200);
      add(
        bad.length === 0,
        `GET ${e.path} did not answer 200 while the agent was shutting down (${bad.length} of ${mine.length} answers, the first to a request sent ${ms(bad[0]?.sentMs ?? 0)} after SIGTERM)`,
        listed(bad),
        '200 until the process exits',
        e.draining.also,
      );
      continue;
    }
    // Readiness: 503 from the end of the grace on; once 503, never ready again.
    const firstNotReady = mine.find((s) => s.status === 503);
    const lateReady = mine.filter((s) => s.status === 200 && (s.sentMs > timing.signalGraceMs || (firstNotReady && s.sentMs > firstNotReady.sentMs)));
    const other = mine.filter((s) => s.status !== 200 && s.status !== 503);
    add(
      lateReady.length === 0,
      `GET ${e.path} answered 200 to ${lateReady.length} request(s) sent after SIGTERM, the first ${ms(lateReady[0]?.sentMs ?? 0)} after it${firstNotReady && lateReady.some((s) => s.sentMs > firstNotReady.sentMs) ? ', after it had already answered 503' : ''}`,
      listed(lateReady),
      `503 for every request sent later than ${ms(timing.signalGraceMs)} after SIGTERM, until the exit`,
    );
    add(other.length === 0, `GET ${e.path} answered neither 200 nor 503 during shutdown`, listed(other), '503 during shutdown');
    // Found gone when the first of the probes after which none was answered came back (its answer time: a stall may time it out).
    const sent = samples.filter((s) => s.path === e.path).sort((a, b) => a.sentMs - b.sentMs);
    const lastAnswered = mine.length ? sent.lastIndexOf(mine[mine.length - 1]) : -1;
    const goneSeenAt = sent[lastAnswered + 1]?.answeredMs ?? Infinity;
    const blind = stalls.filter((st) => st.atMs < goneSeenAt);
    if (!firstNotReady && blind.length) {
      inconclusive = `readiness was never seen answering 503, but the watcher itself stalled before it saw the agent gone (${describeStalls(blind)} after SIGTERM): a 503 may have come unseen`;
      continue;
    }
    add(
      !!firstNotReady,
      `readiness never answered 503 after SIGTERM${lastAnswer === undefined ? ': the agent answered nothing after it (it exited at once)' : `, in the ${ms(lastAnswer)} the agent kept answering`}`,
      mine.length ? listed(mine) : 'no answer',
      '503 during shutdown, before the exit',
    );
    if (firstNotReady)
      notes.push(
        `readiness answered 503 to a request sent ${ms(firstNotReady.sentMs)} after SIGTERM (answered at +${ms(firstNotReady.answeredMs)}); ${mine.filter((s) => s.status === 200).length} earlier answer(s) said 200`,
      );
  }
  if (lastAnswer !== undefined)
    notes.push(`the agent answered until ${ms(lastAnswer)} after SIGTERM (${answers.length} answers, ${samples.length - answers.length} probes without one)`);
  if (stillAnswering)
    notes.push(`the agent still answered ${ms(timing.watchLimitMs)} after SIGTERM; the watch stopped there (the document does not bound the drain)`);
  if (stalls.length && !inconclusive)
    notes.push(`the watcher stalled ${describeStalls(stalls)} after SIGTERM: a change shorter than that may have gone unseen`);
  // A finding stands, whatever else stayed open: nothing to watch again for.
  if (inconclusive && findings.some((f) => !f.ok)) {
    notes.push(inconclusive);
    inconclusive = undefined;
  }
  return { findings, notes, ...(inconclusive ? { inconclusive } : {}) };
}
