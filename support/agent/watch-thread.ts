/**
 * A worker thread that lives one watched agent session (lifecycle.ts) and posts it back. The watch
 * times probes a few tens of milliseconds apart for the second or two of a drain; on the runner's main
 * thread, which loads the tests and runs the reporters meanwhile, it stalled for hundreds of
 * milliseconds on a loaded machine and saw nothing of the drain. A thread of its own is not held up by
 * that work. An 'abort' message kills the agent (the run is ending).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { liveWatchedSession } from './lifecycle';

const abort = new AbortController();
parentPort!.on('message', (m) => {
  if (m === 'abort') abort.abort();
});
void liveWatchedSession((workerData as { command: string }).command, abort.signal).then((session) => parentPort!.postMessage(session));
