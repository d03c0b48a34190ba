/**
 * Watching an agent shut down: SIGTERM, then each health endpoint probed in its own tight loop (a probe
 * every few tens of milliseconds, each endpoint independently, so a slow answer on one delays no other)
 * from the first moment after the signal until the agent stops answering. Times are kept relative to
 * the signal, for the judge (shutdown-judge.ts).
 */
import { probe } from './probe';
import type { AgentProcess } from './process';
import type { ShutdownSample } from './shutdown-judge';
import { AGENT_ENDPOINTS, type ShutdownTiming } from './table';

export interface ShutdownWatch {
  samples: ShutdownSample[];
  /** The agent still answered when the watch limit was reached. */
  stillAnswering: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function watchShutdown(agent: AgentProcess, timing: ShutdownTiming): Promise<ShutdownWatch> {
  let exited = false;
  void agent.exited.then(() => (exited = true));
  const samples: ShutdownSample[] = [];
  let stillAnswering = false;
  agent.signal('SIGTERM');
  // Taken after the signal was sent: no request counted as "after SIGTERM" can have left before it.
  const t0 = performance.now();
  const loop = async (path: string) => {
    for (let misses = 0; ;) {
      const sentMs = performance.now() - t0;
      if (sentMs > timing.watchLimitMs) {
        stillAnswering = true;
        return;
      }
      const p = await probe(`${agent.baseUrl}${path}`, timing.probeTimeoutMs);
      const answeredMs = performance.now() - t0;
      samples.push('status' in p ? { path, sentMs, answeredMs, status: p.status } : { path, sentMs, answeredMs, error: p.error });
      misses = 'status' in p ? 0 : misses + 1;
      // Gone: refused (or silent) several times in a row, or once after the process has exited.
      if (misses >= timing.goneAfterMisses || (misses > 0 && exited)) return;
      await sleep(timing.intervalMs);
    }
  };
  await Promise.all(AGENT_ENDPOINTS.map((e) => loop(e.path)));
  return { samples, stillAnswering };
}
