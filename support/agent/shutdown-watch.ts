/**
 * The shutdown as the shutdown judge reads it: the part of an agent's watched life after SIGTERM, its probes and the
 * watcher's stalls timed from the signal (the watch itself: life-watch.ts).
 */
import type { LifeSample, LifeWatch, WatchStall } from './life-watch';

export type { WatchStall };

/** One probe sent after SIGTERM: when it was sent and answered (ms after SIGTERM), and its status or why it got none. */
export type ShutdownSample = LifeSample;

/** What the watch saw after SIGTERM; `stillAnswering`: the agent still answered when the watch limit was reached. */
export interface ShutdownWatch {
  samples: ShutdownSample[];
  stillAnswering: boolean;
  stalls: WatchStall[];
}

/** The probes sent after SIGTERM and the stalls that ended after it, timed from the signal; nothing when it was never sent. */
export function shutdownPart({ samples, stalls, signal, stillAnswering }: LifeWatch): ShutdownWatch {
  if (!signal) return { samples: [], stalls: [], stillAnswering };
  const t = signal.afterMs;
  return {
    samples: samples.filter((s) => s.sentMs >= t).map((s) => ({ ...s, sentMs: s.sentMs - t, answeredMs: s.answeredMs - t })),
    stalls: stalls
      .filter((s) => s.atMs + s.forMs > t)
      .map((s) => (s.atMs >= t ? { atMs: s.atMs - t, forMs: s.forMs } : { atMs: 0, forMs: s.atMs + s.forMs - t })),
    stillAnswering,
  };
}
