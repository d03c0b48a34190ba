/**
 * Watching an agent shut down: SIGTERM, then each endpoint probed in its own tight loop until the agent stops answering, times relative to the signal.
 * The watch times its own pauses too: on a loaded machine the agent may drain unseen, and the judge weighs such stalls.
 */
import { probe } from './probe';
import type { AgentProcess } from './process';
import { AGENT_ENDPOINTS, SHUTDOWN_TIMING as timing } from './table';

/** One probe: when it was sent (ms after SIGTERM), and its status or why it got none. */
export interface ShutdownSample {
  path: string;
  sentMs: number;
  answeredMs: number;
  status?: number;
  error?: string;
}

/** A pause of the watcher itself: from `atMs` after SIGTERM, nothing was sent or read for `forMs`. */
export type WatchStall = { atMs: number; forMs: number };

/** What a watch of the shutdown saw; `stillAnswering`: the agent still answered when the watch limit was reached. */
export type ShutdownWatch = Awaited<ReturnType<typeof watchShutdown>>;

/** The watcher's clock ticks this often; a tick that comes later than `stallLimitMs` marks a stall. */
const TICK_MS = 10;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function watchShutdown(agent: AgentProcess) {
  let exited = false;
  void agent.exited.then(() => (exited = true));
  const samples: ShutdownSample[] = [];
  let stillAnswering = false;
  agent.signal('SIGTERM');
  // Taken after the signal was sent: no request counted as "after SIGTERM" can have left before it.
  const t0 = performance.now();
  const stalls: WatchStall[] = [];
  let lastTick = t0;
  const tick = () => {
    const now = performance.now();
    if (now - lastTick > timing.stallLimitMs) stalls.push({ atMs: lastTick - t0, forMs: now - lastTick });
    lastTick = now;
  };
  const ticker = setInterval(tick, TICK_MS);
  const loop = async (path: string) => {
    for (let misses = 0; ;) {
      let sentAt = performance.now();
      if (sentAt - t0 > timing.watchLimitMs) {
        stillAnswering = true;
        return;
      }
      const p = await probe(`${agent.baseUrl}${path}`, timing.probeTimeoutMs, () => (sentAt = performance.now()));
      samples.push({ path, sentMs: sentAt - t0, answeredMs: performance.now() - t0, ...p });
      misses = 'status' in p ? 0 : misses + 1;
      // Gone: refused (or silent) several times in a row, or once after the process has exited.
      if (misses >= timing.goneAfterMisses || (misses > 0 && exited)) return;
      await sleep(timing.intervalMs);
    }
  };
  try {
    await Promise.all(AGENT_ENDPOINTS.map((e) => loop(e.path)));
  } finally {
    clearInterval(ticker);
    // The last pause, up to the end of the watch, is a stall too when it was long.
    tick();
  }
  return { samples, stillAnswering, stalls };
}
