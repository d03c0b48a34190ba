/** An agent's life as the tests need it (started, up, probed, stopped, killed), recorded as data (AgentSession) and judged afterwards. */
import { AGENT_DEFAULT_PORT } from '../document/facts';
import { EMBEDDED } from '../run/config';
import type { Verdict } from '../checks/verdict';
import { probe, type Probe } from './probe';
import { startAgent, withPortLock, type AgentProcess } from './process';
import { freePort, isPortFree } from '../run/loopback-ports';
import { judgeShutdown } from './shutdown-judge';
import { watchShutdown, type ShutdownWatch } from './shutdown-watch';
import { AGENT_ENDPOINTS, PHASE, SHUTDOWN_TIMING } from './table';

/** Long enough for an AGENT_COMMAND that starts a container from a local image. */
export const STARTUP_LIMIT_MS = 30_000;
/** Once it answers at all, an agent has this long to report ready. */
const READY_LIMIT_MS = 15_000;
/** The embedded agent is up and ready within a second: a run against it need not wait the limits a real agent gets. */
const EMBEDDED_STARTUP_LIMIT_MS = 5_000;
const EMBEDDED_READY_LIMIT_MS = 2_000;
/** How long a signalled agent is given to exit when its shutdown is not watched. */
const EXIT_LIMIT_MS = 10_000;

/** What one endpoint answered while the agent ran: a status, or why none came. */
interface RunningProbe {
  path: string;
  got: number | string;
}

/** An agent's life as it went, for the judge. */
export interface AgentSession {
  command: string;
  /** The port given in AGENT_HEALTH_PORT; none: unset, the agent's default. */
  port?: number;
  baseUrl: string;
  upLimitMs: number;
  up: boolean;
  /** The agent's last lines of output (when it did not come up). */
  output: string;
  running: RunningProbe[];
  /** The endpoints that failed on the port given, asked on the default port (free before the agent started, under its lock). */
  elsewhere?: RunningProbe[];
  /** Its shutdown, when it was watched. */
  watch?: ShutdownWatch;
  /** Earlier watches of the shutdown not judged, each with why (the watcher stalled). */
  rewatched?: string[];
  /** The session broke on the suite's side (not a finding about the agent). */
  error?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

async function probeRunning(baseUrl: string, paths: readonly string[] = AGENT_ENDPOINTS.map((e) => e.path)): Promise<RunningProbe[]> {
  const out: RunningProbe[] = [];
  for (const path of paths) {
    const p = await probe(`${baseUrl}${path}`);
    out.push({ path, got: 'status' in p ? p.status : p.error });
  }
  return out;
}

/** A path no agent serves. */
const UNKNOWN_PATH = '/-/contract-suite-no-such-endpoint';

/** Probed right after an error answer: AG-1..3 say "answers 200", whatever came before. */
async function probeAfterAnError(baseUrl: string): Promise<RunningProbe[]> {
  await probe(`${baseUrl}${UNKNOWN_PATH}`);
  return probeRunning(baseUrl);
}

/** The agent's URL on the default port, on the host of the one it was given. */
const onDefaultPort = (baseUrl: string) => Object.assign(new URL(baseUrl), { port: String(AGENT_DEFAULT_PORT) }).origin;

/** AG-1..3 on a running agent; with `portClause`, AG-4 too (something answers on the port it was given). */
function judgeRunning(verdict: Verdict, baseUrl: string, probes: readonly RunningProbe[], portClause = false): void {
  for (const e of AGENT_ENDPOINTS) {
    const v = verdict.at({ place: e.place, valueClass: PHASE.running });
    const got = probes.find((p) => p.path === e.path)?.got ?? 'not probed';
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
  judgeRunning(verdict, baseUrl, await probeAfterAnError(baseUrl));
}

/** Starts the agent, probes it, stops it (`watch`: the shutdown watched; `signal`: its exit awaited) and kills it; never throws (`error`). */
async function liveAgentSession(command: string, env: NodeJS.ProcessEnv, port: number | undefined, stop: 'watch' | 'signal'): Promise<AgentSession> {
  // An endpoint that fails on the port given is asked on the default port too, from a fresh start under that port's lock, so what answers is ours.
  const elsewhereTold = port !== undefined && port !== AGENT_DEFAULT_PORT;
  let agent: AgentProcess | undefined;
  const started = async (lookElsewhere: boolean) => {
    // Only a default port free before the agent started says who answers there. Soon: the agent started first may still be letting its ports go.
    const freeBefore = lookElsewhere && (await portFreeSoon(AGENT_DEFAULT_PORT));
    agent = startAgent(command, port, env);
    return upAndProbed(command, port, agent, freeBefore);
  };
  try {
    let session = await started(false);
    if (elsewhereTold && session.up && session.running.some((p) => p.got !== 200)) {
      agent!.signal('SIGKILL');
      await agent!.exited;
      session = await withPortLock(AGENT_DEFAULT_PORT, () => started(true));
    }
    if (session.up) {
      const a = agent!;
      if (stop === 'watch') session.watch = await watchShutdown(a);
      else {
        // Nothing after the signal is judged here: the embedded agent (a process of ours) is killed
        // outright; another gets SIGTERM, which a container's runtime passes on, and its exit is awaited.
        a.signal(command === EMBEDDED.agentCommand ? 'SIGKILL' : 'SIGTERM');
        await Promise.race([a.exited, sleep(EXIT_LIMIT_MS)]);
      }
    }
    return session;
  } catch (e) {
    return { command, port, baseUrl: agent?.baseUrl ?? '', upLimitMs: 0, up: false, output: '', running: [], error: (e as Error).message.split('\n')[0] };
  } finally {
    agent?.signal('SIGKILL');
  }
}

/** An agent just started: up and ready, its endpoints probed; those that failed asked on the default port too, when it was given another. */
async function upAndProbed(command: string, port: number | undefined, agent: AgentProcess, lookElsewhere: boolean): Promise<AgentSession> {
  const embedded = command === EMBEDDED.agentCommand;
  const session: AgentSession = {
    command,
    port,
    baseUrl: agent.baseUrl,
    upLimitMs: embedded ? EMBEDDED_STARTUP_LIMIT_MS : STARTUP_LIMIT_MS,
    up: false,
    output: '',
    running: [],
  };
  // Up: liveness answers at all; a refused connection costs little, so it is asked often.
  session.up = await pollUntil(agent, '/-/liveness', (p) => 'status' in p, session.upLimitMs, 20);
  if (!session.up) {
    session.output = agent.output().split('\n').slice(-3).join(' | ') || 'no output';
    return session;
  }
  // Readiness may answer 503 while the agent starts: it must turn 200 once the agent is ready.
  await pollUntil(agent, '/-/readiness', (p) => 'status' in p && p.status === 200, embedded ? EMBEDDED_READY_LIMIT_MS : READY_LIMIT_MS, 200);
  session.running = await probeAfterAnError(agent.baseUrl);
  const missed = session.running.filter((p) => p.got !== 200).map((p) => p.path);
  if (lookElsewhere && missed.length) session.elsewhere = await probeRunning(onDefaultPort(agent.baseUrl), missed);
  return session;
}

/** The judgement of a watched shutdown. */
const judgeWatch = (w: ShutdownWatch) => judgeShutdown(w.samples, w.stillAnswering, w.stalls);

/** A watched session, lived again on a new port while the watcher's stalls leave it undecided, up to the timing's attempts. */
export async function liveWatchedSession(command: string, env: NodeJS.ProcessEnv): Promise<AgentSession> {
  const rewatched: string[] = [];
  for (let attempt = 1; ; attempt++) {
    const session = await liveAgentSession(command, env, await freePort(), 'watch');
    const open = session.watch && judgeWatch(session.watch).inconclusive;
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
        ? { session: await liveAgentSession(command, env, undefined, 'signal') }
        : { skipped: `port ${AGENT_DEFAULT_PORT} is in use on this machine: the default port cannot be tried` },
    // A session on a port given may hold this lock while its agent starts again and is probed.
    STARTUP_LIMIT_MS + READY_LIMIT_MS + 10_000,
  );

/** Whether a port is free now or within a few seconds: something that holds it for a moment (an agent that took it without the lock) is waited for. */
async function portFreeSoon(port: number, waitMs = 3_000): Promise<boolean> {
  for (const deadline = Date.now() + waitMs; ; await sleep(250)) if ((await isPortFree(port)) || Date.now() > deadline) return isPortFree(port);
}

/** In the reason of a shutdown left undecided: the watcher, not the agent, was the problem. */
export const MACHINE_TOO_BUSY = 'the machine being too busy';

/** AG-4, AG-1..3 and, when watched, AG-5; returns why AG-5 stayed undecided (the watcher stalled each time), reported as not verified. */
export function judgeAgentSession(verdict: Verdict, s: AgentSession): string | undefined {
  if (s.error) throw new Error(`the agent's session broke on the suite's side: ${s.error}`);
  const given = s.port === undefined ? `the default port ${AGENT_DEFAULT_PORT}` : `AGENT_HEALTH_PORT=${s.port}`;
  // Up means liveness answered (waitUntilUp): the check is stamped with that endpoint's place.
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
  judgeElsewhere(verdict, s);
  if (!s.watch) return undefined;
  for (const r of s.rewatched ?? []) verdict.note('agent-shutdown', `${r}; watched again`);
  const { findings, notes, inconclusive } = judgeWatch(s.watch);
  for (const { place, ...check } of findings) verdict.at({ place, valueClass: PHASE.draining }).check(check);
  for (const n of notes) verdict.note('agent-shutdown', n);
  // Undecided after every watch, with nothing else found: the suite's own limit, not the agent's fault.
  if (inconclusive) return `the agent's shutdown could not be judged in ${(s.rewatched?.length ?? 0) + 1} watch(es), ${MACHINE_TOO_BUSY}: ${inconclusive}`;
  return undefined;
}

/** AG-4: an endpoint that failed on the port given but answered 200 on the default port was served by the agent on the wrong port. */
function judgeElsewhere(verdict: Verdict, s: AgentSession): void {
  for (const p of s.elsewhere ?? []) {
    if (p.got !== 200) continue;
    const e = AGENT_ENDPOINTS.find((x) => x.path === p.path)!;
    verdict.at({ place: e.place, valueClass: PHASE.running }).fail({
      clause: 'AG-4',
      title: `GET ${p.path} is served on the default port ${AGENT_DEFAULT_PORT}, not on the port given in AGENT_HEALTH_PORT (${s.port})`,
      received: `${s.running.find((r) => r.path === p.path)?.got} on port ${s.port}; 200 on port ${AGENT_DEFAULT_PORT}, free before the agent started`,
      allowed: `every endpoint on port ${s.port}`,
    });
  }
}

/** The watched shutdown, one probe a line, for the report. */
export const describeWatch = (watch: ShutdownWatch) =>
  [
    ...watch.samples.map((s) => `+${s.sentMs.toFixed(1)} ms ${s.path} → ${s.status ?? s.error} (+${s.answeredMs.toFixed(1)} ms)`),
    ...watch.stalls.map((s) => `the watcher stalled ${s.forMs.toFixed(1)} ms from +${s.atMs.toFixed(1)} ms`),
  ].join('\n');
