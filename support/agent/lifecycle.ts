/** An agent's life as the tests need it (started, up, probed, stopped, killed), recorded as data (AgentSession) and judged afterwards. */
import { AGENT_DEFAULT_PORT } from '../document/facts';
import { EMBEDDED } from '../run/config';
import { failureTitle } from '../checks/failure';
import type { Verdict } from '../checks/verdict';
import { probe, type Probe } from './probe';
import { PortLockTimeout, startAgent, withPortLock, type AgentProcess } from './process';
import { freePort, HIGH_PORTS, isPortFree } from '../run/loopback-ports';
import { judgeLife } from './life-judge';
import { watchLife, type LifeSample, type LifeWatch, type LifeWatcher } from './life-watch';
import { judgeShutdown } from './shutdown-judge';
import { shutdownPart } from './shutdown-watch';
import { AGENT_ENDPOINTS, LIFE_TIMING, PHASE, SHUTDOWN_TIMING } from './table';

/** Long enough for an AGENT_COMMAND that starts a container from a local image. */
export const STARTUP_LIMIT_MS = 30_000;
/** Once it answers at all, an agent has this long to report ready. */
const READY_LIMIT_MS = 15_000;
/** The embedded agent is up and ready within a second: a run against it need not wait the limits a real agent gets. */
const EMBEDDED_STARTUP_LIMIT_MS = 5_000;
const EMBEDDED_READY_LIMIT_MS = 2_000;
/** How long a signalled agent is given to exit when its shutdown is not watched. */
const EXIT_LIMIT_MS = 10_000;
/** A path no agent serves. */
const UNKNOWN_PATH = '/-/contract-suite-no-such-endpoint';
/** In the reason of a shutdown left undecided: the watcher, not the agent, was the problem. */
export const MACHINE_TOO_BUSY = 'the machine being too busy';

/** What each endpoint answered while the agent ran, by path: a status, or why none came. */
type Answers = Record<string, number | string>;

/** An agent's life as it went, for the judge. */
export interface AgentSession {
  /** The port given in AGENT_HEALTH_PORT (the shutdown is watched); none: unset, the agent's default (it is only signalled). */
  port?: number;
  baseUrl: string;
  upLimitMs: number;
  up: boolean;
  /** The agent's last lines of output (when it did not come up). */
  output: string;
  running: Answers;
  /** The endpoints that failed on the port given, asked on the default port (free before the agent started, under its lock). */
  elsewhere?: Answers;
  /** Its whole life, from its start to its exit, when its shutdown was watched. */
  watch?: LifeWatch;
  /** Earlier watches of the shutdown not judged, each with why (the watcher stalled). */
  rewatched?: string[];
  /** The session broke on the suite's side (not a finding about the agent). */
  error?: string;
  /** The agent exited without answering and another program holds its port: taken after the suite chose it, not the agent's fault. */
  portTaken?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const failedPaths = (answers: Answers) => Object.keys(answers).filter((path) => answers[path] !== 200);

/**
 * Polls an endpoint of a starting agent until its answer will do, the process dies, or time runs out: one probe at least after the
 * deadline, as a runner held busy past it has not given the agent its time.
 */
async function pollUntil(agent: AgentProcess, path: string, done: (p: Probe) => boolean, limitMs: number, everyMs: number): Promise<boolean> {
  let dead = false;
  void agent.exited.then(() => (dead = true));
  for (const deadline = Date.now() + limitMs; !dead; await sleep(everyMs)) {
    const last = Date.now() >= deadline;
    if (done(await probe(`${agent.baseUrl}${path}`, 1000))) return true;
    if (last) return false;
  }
  return false;
}

const ALL_PATHS = AGENT_ENDPOINTS.map((e) => e.path);

const answeredBy = (path: string, status?: number) => (samples: readonly LifeSample[]) =>
  samples.some((s) => s.path === path && s.status !== undefined && (status === undefined || s.status === status));

/** The steady state watched: `steadyMs` from `fromMs` on, and each endpoint answering `steadyAnswers` requests sent since. */
const steadyWatched = (fromMs: number) => (samples: readonly LifeSample[]) =>
  samples.some((s) => s.sentMs >= fromMs + LIFE_TIMING.steadyMs) &&
  ALL_PATHS.every((path) => samples.filter((s) => s.path === path && s.sentMs >= fromMs && s.status !== undefined).length >= LIFE_TIMING.steadyAnswers);

/** Each endpoint asked once; all of them right after an error answer: AG-1..3 say "answers 200", whatever came before. */
async function answers(baseUrl: string, paths: readonly string[] = ALL_PATHS): Promise<Answers> {
  if (paths === ALL_PATHS) await probe(`${baseUrl}${UNKNOWN_PATH}`);
  const out: Answers = {};
  for (const path of paths) {
    const p = await probe(`${baseUrl}${path}`);
    out[path] = 'status' in p ? p.status : p.error;
  }
  return out;
}

/** AG-1..3 on a running agent; with `portClause`, AG-4 too (something answers on the port it was given). */
function judgeRunning(verdict: Verdict, baseUrl: string, answered: Answers, portClause = false): void {
  for (const e of AGENT_ENDPOINTS) {
    const v = verdict.at({ place: e.place, valueClass: PHASE.running });
    const got = answered[e.path] ?? 'not probed';
    v.check({ clause: e.clause, ok: got === 200, title: `GET ${e.path} on ${baseUrl} did not answer 200`, received: got, allowed: '200', expectedStatus: 200 });
    if (portClause)
      v.check({
        clause: 'AG-4',
        ok: typeof got === 'number',
        title: `nothing answers ${e.path} on the port given in AGENT_HEALTH_PORT (${baseUrl})`,
        received: got,
        allowed: 'the endpoints on that port',
      });
  }
}

export async function probeAll(verdict: Verdict, baseUrl: string): Promise<void> {
  judgeRunning(verdict, baseUrl, await answers(baseUrl));
}

/**
 * Starts the agent until it is up and ready and asks its endpoints; on a port given, its whole life is watched from its start (every
 * endpoint, the steady state, the shutdown, until its exit), else the agent is signalled and its exit awaited; killed at the end.
 * Never throws (`error`).
 */
async function liveAgentSession(command: string, env: NodeJS.ProcessEnv, port?: number): Promise<AgentSession> {
  const embedded = command === EMBEDDED.agentCommand;
  const s: AgentSession = {
    port,
    baseUrl: '',
    upLimitMs: embedded ? EMBEDDED_STARTUP_LIMIT_MS : STARTUP_LIMIT_MS,
    up: false,
    output: '',
    running: {},
  };
  let agent: AgentProcess | undefined;
  let life: LifeWatcher | undefined;
  const readyLimitMs = embedded ? EMBEDDED_READY_LIMIT_MS : READY_LIMIT_MS;
  const startAndAsk = async (lookElsewhere: boolean) => {
    // Only a default port free before the agent started says who answers there. Soon: the agent started first may still be letting its ports go.
    const freeBefore = lookElsewhere && (await portFreeSoon(AGENT_DEFAULT_PORT));
    await life?.stop();
    const a = (agent = startAgent(command, port, env));
    s.baseUrl = a.baseUrl;
    // Watched from its start: its first answers count (life-judge.ts).
    life = port === undefined ? undefined : watchLife(a, LIFE_TIMING.exitMarginMs[embedded ? 'embedded' : 'command']);
    // Up: liveness answers at all; a refused connection costs little, so it is asked often.
    s.up = life ? await life.until(answeredBy('/-/liveness'), s.upLimitMs) : await pollUntil(a, '/-/liveness', (p) => 'status' in p, s.upLimitMs, 20);
    if (!s.up) {
      s.output = a.output().split('\n').slice(-3).join(' | ') || 'no output';
      const exited = await Promise.race([a.exited.then(() => true), sleep(0).then(() => false)]);
      s.portTaken = port !== undefined && exited && !(await isPortFree(port));
      return;
    }
    // Readiness may answer 503 while the agent starts: it must turn 200 once the agent is ready.
    if (life) await life.until(answeredBy('/-/readiness', 200), readyLimitMs);
    else await pollUntil(a, '/-/readiness', (p) => 'status' in p && p.status === 200, readyLimitMs, 200);
    s.running = await answers(a.baseUrl);
    const missed = failedPaths(s.running);
    if (freeBefore && missed.length) s.elsewhere = await answers(Object.assign(new URL(a.baseUrl), { port: String(AGENT_DEFAULT_PORT) }).origin, missed);
  };
  try {
    await startAndAsk(false);
    // An endpoint that fails on the port given is asked on the default port too, from a fresh start under that port's lock, so what answers is ours.
    if (port !== undefined && s.up && failedPaths(s.running).length) {
      agent!.signal('SIGKILL');
      await agent!.exited;
      // Under another run's lock for too long: the endpoints are not asked on the default port (the failures on the port given stand).
      await withPortLock(AGENT_DEFAULT_PORT, () => startAndAsk(true)).catch((e: unknown) => {
        if (!(e instanceof PortLockTimeout)) throw e;
      });
    }
    if (s.up && life) {
      // The steady state is watched for a while before SIGTERM: readiness that flaps, an endpoint that fails for a moment.
      await life.until(steadyWatched(life.now()), LIFE_TIMING.steadyLimitMs);
      s.watch = await life.shutdown();
    } else if (s.up) {
      // Nothing after the signal is judged here: the embedded agent (a process of ours) is killed
      // outright; another gets SIGTERM, which a container's runtime passes on, and its exit is awaited.
      agent!.signal(embedded ? 'SIGKILL' : 'SIGTERM');
      await Promise.race([agent!.exited, sleep(EXIT_LIMIT_MS)]);
    }
    return s;
  } catch (e) {
    return { ...s, up: false, error: (e as Error).message.split('\n')[0] };
  } finally {
    agent?.signal('SIGKILL');
    await life?.stop();
  }
}

/** A watched session, lived again on a new port while the watcher's stalls leave it undecided or another program took its port first, up to the timing's attempts. */
export async function liveWatchedSession(command: string, env: NodeJS.ProcessEnv): Promise<AgentSession> {
  const rewatched: string[] = [];
  for (let attempt = 1; ; attempt++) {
    // A high port first, where a parser or range check of the port ends (8081, the default, is the other session's); another after a failed attempt.
    const session = await liveAgentSession(command, env, await freePort(attempt === 1 ? HIGH_PORTS : undefined));
    const open =
      (session.watch && judgeShutdown(shutdownPart(session.watch)).inconclusive) ||
      (session.portTaken && `port ${session.port} was taken by another program before the agent listened on it`);
    if (!open || attempt >= SHUTDOWN_TIMING.watchAttempts) return { ...session, rewatched };
    rewatched.push(`watch ${attempt}: ${open}`);
  }
}

/** The agent started without AGENT_HEALTH_PORT, under the machine-wide lock of the default port, not tried where something else holds it. */
export const defaultPortSession = (command: string, env: NodeJS.ProcessEnv): Promise<{ session: AgentSession } | { skipped: string }> =>
  withPortLock(
    AGENT_DEFAULT_PORT,
    async () =>
      (await portFreeSoon(AGENT_DEFAULT_PORT))
        ? { session: await liveAgentSession(command, env) }
        : { skipped: `port ${AGENT_DEFAULT_PORT} is in use on this machine: the default port cannot be tried` },
    // A session on a port given may hold this lock while its agent starts again and is probed.
    STARTUP_LIMIT_MS + READY_LIMIT_MS + 10_000,
  ).catch((e: unknown) => {
    if (e instanceof PortLockTimeout) return { skipped: `${e.message}: the default port cannot be tried` };
    throw e;
  });

/** Whether a port is free now or within a few seconds: something that holds it for a moment (an agent that took it without the lock) is waited for. */
async function portFreeSoon(port: number, waitMs = 3_000): Promise<boolean> {
  for (const deadline = Date.now() + waitMs; ; await sleep(250)) if ((await isPortFree(port)) || Date.now() > deadline) return isPortFree(port);
}

/**
 * AG-4, AG-1..3 and, when watched, the whole life (AG-1..3 from the first answer on, AG-5); returns why AG-5 stayed undecided (the
 * watcher stalled each time), reported as not verified. One cause, one failure: a finding of the life at a clause, place and phase
 * already failed by another check is a note.
 */
export function judgeAgentSession(verdict: Verdict, s: AgentSession): string | undefined {
  if (s.error) throw new Error(`the agent's session broke on the suite's side: ${s.error}`);
  const given = s.port === undefined ? `the default port ${AGENT_DEFAULT_PORT}` : `AGENT_HEALTH_PORT=${s.port}`;
  // Up means liveness answered: the check is stamped with that endpoint's place.
  const v = verdict.at({ place: AGENT_ENDPOINTS.find((e) => e.path === '/-/liveness')!.place, valueClass: PHASE.running });
  if (
    !v.check({
      clause: 'AG-4',
      ok: s.up,
      title: `the agent started by AGENT_COMMAND did not answer on ${given} within ${s.upLimitMs / 1000} s`,
      received: s.output,
      allowed: `the health endpoints on ${s.baseUrl}`,
    })
  )
    return undefined;
  judgeRunning(verdict, s.baseUrl, s.running, true);
  // AG-4: an endpoint that failed on the port given but answered 200 on the default port was served by the agent on the wrong port.
  for (const e of AGENT_ENDPOINTS.filter((x) => s.elsewhere?.[x.path] === 200))
    verdict.at({ place: e.place, valueClass: PHASE.running }).fail({
      clause: 'AG-4',
      title: `GET ${e.path} is served on the default port, not on the port given in AGENT_HEALTH_PORT`,
      received: `${s.running[e.path]} on port ${s.port}; 200 on port ${AGENT_DEFAULT_PORT}, free before the agent started`,
      allowed: `every endpoint on port ${s.port}`,
    });
  if (!s.watch) return undefined;
  for (const r of s.rewatched ?? []) verdict.note('agent-shutdown', `${r}; watched again`);
  const { findings, notes, inconclusive } = judgeShutdown(shutdownPart(s.watch));
  for (const { place, ...check } of findings) verdict.at({ place, valueClass: PHASE.draining }).check(check);
  for (const n of notes) verdict.note('agent-shutdown', n);
  const life = judgeLife(s.watch);
  const failed = new Set(verdict.failures.map((f) => `${f.clause}|${f.place}|${f.valueClass}`));
  for (const { place, valueClass, ...check } of life.findings)
    if (failed.has(`${check.clause}|${place}|${valueClass}`)) verdict.note('agent-life', `${check.clause} ${failureTitle(check)}`);
    else verdict.at({ place, valueClass }).check(check);
  for (const n of life.notes) verdict.note('agent-life', n);
  // Undecided after every watch, with nothing else found: the suite's own limit, not the agent's fault.
  if (inconclusive) return `the agent's shutdown could not be judged in ${(s.rewatched?.length ?? 0) + 1} watch(es), ${MACHINE_TOO_BUSY}: ${inconclusive}`;
  return undefined;
}

/** The watched life, one probe a line (ms since the start), with SIGTERM, the exit and the watcher's stalls in their places, for the report. */
export function describeWatch(watch: LifeWatch): string {
  const events: Array<[number, string]> = [
    ...watch.samples.map((s): [number, string] => [s.sentMs, `+${s.sentMs.toFixed(1)} ms ${s.path} → ${s.status ?? s.error} (+${s.answeredMs.toFixed(1)} ms)`]),
    ...watch.stalls.map((s): [number, string] => [s.atMs, `+${s.atMs.toFixed(1)} ms the watcher stalled ${s.forMs.toFixed(1)} ms`]),
    ...(watch.signal ? [[watch.signal.beforeMs, `+${watch.signal.beforeMs.toFixed(1)} ms SIGTERM`] as [number, string]] : []),
    ...(watch.exitMs === undefined ? [] : [[watch.exitMs, `+${watch.exitMs.toFixed(1)} ms the process exited`] as [number, string]]),
  ];
  return events
    .sort((a, b) => a[0] - b[0])
    .map(([, line]) => line)
    .join('\n');
}
