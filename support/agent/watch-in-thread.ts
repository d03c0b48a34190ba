/**
 * A watched agent session lived on a worker thread of its own (watch-thread.ts says why), from any
 * process: the runner's background or a test's worker. Where the thread's script cannot be built, the
 * session is lived on this thread, with the stalls that may bring, and the session's note says why.
 */
import { Worker } from 'node:worker_threads';
import { threadScript } from '../run/thread-script';
import { brokenSession, liveWatchedSession, type AgentSession } from './lifecycle';

export async function watchedSessionInThread(command: string, abort?: AbortSignal): Promise<AgentSession> {
  let script: string;
  try {
    script = await threadScript('support/agent/watch-thread.ts');
  } catch (e) {
    const why = (e as Error).message.split('\n')[0];
    return { ...(await liveWatchedSession(command, abort)), note: `watched on the caller's thread: its own could not be built (${why})` };
  }
  if (abort?.aborted) return brokenSession(command, 'the run ended before the agent was started');
  const worker = new Worker(script, { workerData: { command } });
  const onAbort = () => worker.postMessage('abort');
  abort?.addEventListener('abort', onAbort);
  try {
    return await new Promise<AgentSession>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the agent's watch thread ended (exit code ${code}) before its session did`)));
    });
  } finally {
    abort?.removeEventListener('abort', onAbort);
    void worker.terminate();
  }
}
