/**
 * The agent's watched shutdown, lived in the runner while the tests run. An agent drains as long as it
 * drains (the embedded one 1.5 s, a real one may take many seconds), and a test that lived it would hold
 * a worker idle all that time, at the head of the run. So global setup starts the session (once the spec
 * is checked), in the background of the runner process; the shutdown test runs last (it holds the exclusive lock, see
 * support/run/schedule.ts) and judges the record, by then usually written. Where no session was
 * started for the test's agent (the self-test's fault run, whose targets each have their own), the test
 * lives one itself.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFiles, setRunFiles } from '../run/run-files';
import { brokenSession, liveAgentSession, type AgentSession } from './lifecycle';
import { freePort } from '../run/loopback-ports';

let background: { done: Promise<void>; abort: AbortController } | undefined;

/** Global setup: starts the session and names the file where it will be recorded. */
export function startAgentSession(command: string): void {
  const dir = join(tmpdir(), 'contract-suite');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `agent-${process.pid}-${Date.now()}.json`);
  setRunFiles({ agentSession: file });
  const abort = new AbortController();
  const record = (s: AgentSession) => {
    // Renamed into place whole: a test polling for it never reads half a file.
    writeFileSync(`${file}.partial`, JSON.stringify(s));
    renameSync(`${file}.partial`, file);
  };
  const done = freePort()
    .then((port) => liveAgentSession(command, port, 'watch', abort.signal))
    .then(record, (e: Error) => record(brokenSession(command, e.message)));
  background = { done, abort };
}

/** The file a test renames the record to when it takes it. */
const takenFile = (file: string) => `${file}.taken`;

/** Global teardown: the agent is killed if it still runs, and its record goes, taken or not. */
export async function stopAgentSession(): Promise<void> {
  if (!background) return;
  background.abort.abort();
  await background.done;
  background = undefined;
  const file = runFiles().agentSession;
  if (file) for (const f of [file, takenFile(file)]) rmSync(f, { force: true });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The recorded session, once written, taken by the first test that asks (a repeated or retried test
 * lives a session of its own: it must not judge the same evidence twice); undefined if the run started
 * none for this command, or it was taken.
 */
async function recorded(command: string): Promise<AgentSession | undefined> {
  const file = runFiles().agentSession;
  if (!file) return undefined;
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
  const session = JSON.parse(readFileSync(taken, 'utf8')) as AgentSession;
  return session.command === command ? session : undefined;
}

/** The session the shutdown test judges: the runner's, or one lived now. */
export async function watchedAgentSession(command: string): Promise<AgentSession> {
  return (await recorded(command)) ?? liveAgentSession(command, await freePort(), 'watch');
}
