/**
 * Watching an agent's whole life: from its spawn each endpoint is probed in its own tight loop, through the start-up, the
 * steady state and, once `shutdown()` has sent SIGTERM, the drain, until the process's own exit (its 'exit' event). Times are
 * ms since the watch began (right after the spawn); the watch times its own pauses too (stalls), which the judges weigh.
 */
import { probe } from './probe';
import type { AgentProcess } from './process';
import { AGENT_ENDPOINTS, LIFE_TIMING, SHUTDOWN_TIMING as timing } from './table';

/** One probe: when it was sent and answered, and its status or why it got none. */
export interface LifeSample {
  path: string;
  sentMs: number;
  answeredMs: number;
  status?: number;
  error?: string;
}

/** A pause of the watcher itself: from `atMs`, nothing was sent or read for `forMs`. */
export type WatchStall = { atMs: number; forMs: number };

/** What a watch of an agent's life saw. */
export interface LifeWatch {
  /** In the order they were answered; one endpoint's in the order they were sent (one loop each). */
  samples: LifeSample[];
  stalls: WatchStall[];
  /** When SIGTERM was sent: just before and just after the call. Unset: the watch was stopped without it. */
  signal?: { beforeMs: number; afterMs: number };
  /** When the process's exit event came; unset: not before the watch ended. */
  exitMs?: number;
  endMs: number;
  /** The agent still answered when the watch limit after SIGTERM was reached. */
  stillAnswering: boolean;
  /** How much later than a refused connection the exit must come for the refusal to count (LIFE_TIMING.exitMarginMs). */
  exitMarginMs: number;
}

export interface LifeWatcher {
  /** ms since the watch began. */
  now: () => number;
  /** Resolves true once `done(samples)` holds; false when the process exits first, or a probe sent after `limitMs` from now does not make it hold. */
  until: (done: (samples: readonly LifeSample[]) => boolean, limitMs: number) => Promise<boolean>;
  /** Sends SIGTERM and watches until the process exits (or the watch limits); the whole life. */
  shutdown: () => Promise<LifeWatch>;
  /** Ends the watch without a signal (the agent is killed, or the session gave up on it). */
  stop: () => Promise<LifeWatch>;
}

/** The watcher's clock ticks this often; a tick that comes later than `stallLimitMs` marks a stall. */
const TICK_MS = 10;
/** Once the port stopped answering after SIGTERM, it is asked this seldom: only whether it comes back, and the exit, remain to be seen. */
const GONE_INTERVAL_MS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function watchLife(agent: AgentProcess, exitMarginMs: number): LifeWatcher {
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const w: LifeWatch = { samples: [], stalls: [], endMs: 0, stillAnswering: false, exitMarginMs };
  let stopped = false;
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((f) => f());
  let ended: Promise<LifeWatch> | undefined;
  let finished = false;
  void agent.exited.then(() => {
    // An exit after the watch ended (the session kills the agent) is not recorded: the watch is the evidence, as it was.
    if (!finished) w.exitMs = now();
    wake();
  });
  let lastTick = 0;
  const tick = () => {
    const t = now();
    if (t - lastTick > timing.stallLimitMs) w.stalls.push({ atMs: lastTick, forMs: t - lastTick });
    lastTick = t;
  };
  const ticker = setInterval(tick, TICK_MS);

  const loop = async (path: string) => {
    for (let misses = 0, firstMissMs: number | undefined; !stopped;) {
      let sentMs = now();
      if (w.signal && sentMs - w.signal.afterMs > timing.watchLimitMs) return void (w.stillAnswering = misses === 0);
      const p = await probe(`${agent.baseUrl}${path}`, timing.probeTimeoutMs, () => (sentMs = now()));
      const answeredMs = now();
      w.samples.push({ path, sentMs, answeredMs, ...p });
      wake();
      if ('status' in p) [misses, firstMissMs] = [0, undefined];
      else [misses, firstMissMs] = [misses + 1, firstMissMs ?? answeredMs];
      // Gone for good: the process has exited. Gone in the shutdown, and no exit well past the margin: the judge has what it needs.
      if (misses > 0 && w.exitMs !== undefined) return;
      if (w.signal && firstMissMs !== undefined && answeredMs - firstMissMs > exitMarginMs + LIFE_TIMING.exitWaitExtraMs) return;
      await sleep(w.signal && misses >= timing.goneAfterMisses ? GONE_INTERVAL_MS : timing.intervalMs);
    }
  };
  const loops = Promise.all(AGENT_ENDPOINTS.map((e) => loop(e.path)));
  /** Once: a later call (the session's clean-up) returns the same watch, untouched. */
  const end = () =>
    (ended ??= loops.then(() => {
      clearInterval(ticker);
      // The last pause, up to the end of the watch, is a stall too when it was long.
      tick();
      w.endMs = now();
      finished = true;
      return w;
    }));

  return {
    now,
    until: (done, limitMs) =>
      new Promise<boolean>((resolve) => {
        const deadline = now() + limitMs;
        const check = () => {
          const last = w.samples.at(-1);
          const verdict = done(w.samples) ? true : w.exitMs !== undefined || (last !== undefined && last.sentMs > deadline) ? false : undefined;
          if (verdict === undefined) return;
          waiters.delete(check);
          resolve(verdict);
        };
        waiters.add(check);
        check();
      }),
    shutdown: () => {
      const beforeMs = now();
      agent.signal('SIGTERM');
      // Taken after the signal was sent: no request counted as "after SIGTERM" can have left before it.
      w.signal = { beforeMs, afterMs: now() };
      return end();
    },
    stop: () => {
      stopped = true;
      return end();
    },
  };
}
