/**
 * The agent's sessions, lived in the runner while the tests run:
 * - the shutdown: started on a port the suite chose, probed, SIGTERM, every endpoint watched until the
 *   agent exits, on a worker thread of its own (watch-thread.ts), and lived again on a new port when a
 *   stall of the watcher left AG-5 undecided. An agent drains as long as it drains (the embedded one
 *   1.5 s, a real one may take many seconds);
 * - the default port: started without AGENT_HEALTH_PORT, under the machine-wide lock of that port,
 *   probed on it, signalled. Most of it is the wait for the agent to come up.
 * A test that lived either would hold a worker idle all that time. So global setup starts both (once the
 * spec is checked) in the background of the runner process; their tests run last (they hold the
 * exclusive lock, see support/run/schedule.ts) and judge the records, by then usually written. Where no
 * session was started for the test's agent (the self-test's fault run, whose targets each have their
 * own), the test lives one itself.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_DEFAULT_PORT } from '../document/facts';
import { runFiles, setRunFiles } from '../run/run-files';
import { brokenSession, liveAgentSession, type AgentSession } from './lifecycle';
import { watchedSessionInThread } from './watch-in-thread';
import { withPortLock } from './process';
import { isPortFree } from '../run/loopback-ports';
import { writeWhole } from '../run/kept';

/** What a session came to: lived, or not tried (the default port was taken on this machine). */
type SessionOutcome = { session: AgentSession } | { skipped: string };

const SESSIONS = {
  shutdown: async (command: string, abort?: AbortSignal): Promise<SessionOutcome> => ({
    session: await watchedSessionInThread(command, abort),
  }),
  'default-port': (command: string, abort?: AbortSignal): Promise<SessionOutcome> =>
    withPortLock(AGENT_DEFAULT_PORT, async () =>
      (await isPortFree(AGENT_DEFAULT_PORT))
        ? { session: await liveAgentSession(command, undefined, 'signal', abort) }
        : { skipped: `port ${AGENT_DEFAULT_PORT} is in use on this machine: the default port cannot be tried` },
    ),
};
type SessionName = keyof typeof SESSIONS;
const SESSION_NAMES = Object.keys(SESSIONS) as SessionName[];

/** Where a session's record is written: beside the run file that names the run's agent sessions. */
const recordFile = (base: string, name: SessionName) => `${base}.${name}.json`;
/** The file a test renames the record to when it takes it. */
const takenFile = (file: string) => `${file}.taken`;

let background: { done: Promise<void>; abort: AbortController } | undefined;

/** Global setup: starts every session and names the files where they will be recorded. */
export function startAgentSessions(command: string): void {
  const dir = join(tmpdir(), 'contract-suite');
  mkdirSync(dir, { recursive: true });
  const base = join(dir, `agent-${process.pid}-${Date.now()}`);
  setRunFiles({ agentSession: base });
  const abort = new AbortController();
  const lives = SESSION_NAMES.map((name) => {
    const file = recordFile(base, name);
    // Renamed into place whole: a test polling for it never reads half a file.
    const record = (o: SessionOutcome) => writeWhole(file, JSON.stringify({ command, ...o }));
    return SESSIONS[name](command, abort.signal).then(record, (e: Error) => record({ session: brokenSession(command, e.message) }));
  });
  background = { done: Promise.all(lives).then(() => {}), abort };
}

/** Global teardown: agents that still run are killed, and the records go, taken or not. */
export async function stopAgentSessions(): Promise<void> {
  if (!background) return;
  background.abort.abort();
  await background.done;
  background = undefined;
  const base = runFiles().agentSession;
  if (!base) return;
  for (const file of SESSION_NAMES.map((name) => recordFile(base, name))) for (const f of [file, takenFile(file)]) rmSync(f, { force: true });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The recorded outcome, once written, taken by the first test that asks (a repeated or retried test
 * lives a session of its own: it must not judge the same evidence twice); undefined if the run started
 * none for this command, or it was taken.
 */
async function recorded(name: SessionName, command: string): Promise<SessionOutcome | undefined> {
  const base = runFiles().agentSession;
  if (!base) return undefined;
  const file = recordFile(base, name);
  const taken = takenFile(file);
  // The test's own timeout bounds the wait (the session is bounded by the agent's limits).
  for (;;) {
    try {
      renameSync(file, taken);
      break;
    } catch {
      if (existsSync(taken)) return undefined;
      await sleep(20);
    }
  }
  const { command: lived, ...outcome } = JSON.parse(readFileSync(taken, 'utf8')) as SessionOutcome & { command: string };
  return lived === command ? outcome : undefined;
}

/** The outcome a test judges: the runner's session, or one lived now. */
export async function agentSession(name: SessionName, command: string): Promise<SessionOutcome> {
  return (await recorded(name, command)) ?? SESSIONS[name](command);
}
