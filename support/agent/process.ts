/** Starts AGENT_COMMAND in its own process group, so that SIGTERM reaches the agent and not only its shell. */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED } from '../run/config';

/** The project's root: where the embedded agent's command is run from, wherever the suite was started. */
const ROOT = join(__dirname, '../..');

export interface AgentProcess {
  baseUrl: string;
  output: () => string;
  /** Sends a signal to the whole process group. */
  signal: (name: NodeJS.Signals) => void;
  exited: Promise<number | null>;
}

/** A command the shell would run as one program: no operators, redirections, substitutions or groups, nor a builtin first. */
const SIMPLE_COMMAND = /^(?!\s*(?:exec|cd|export|eval|source|\.)\s)[^;&|<>()$`\\\n{}]+$/;

/**
 * The command as the shell runs it. A simple one is exec'd: the process started is the agent itself, so its exit event is the
 * agent's exit (dash forks a lone command and dies at SIGTERM at once, which would look like an exit while the agent drains).
 */
export const shellCommand = (command: string) => (SIMPLE_COMMAND.test(command) ? `exec ${command}` : command);

/** `environment`: the configuration's, which the command inherits. */
export function startAgent(command: string, port: number | undefined, environment: NodeJS.ProcessEnv): AgentProcess {
  // An AGENT_HEALTH_PORT of the configuration's environment is never passed on (spawn leaves out an undefined value).
  const embedded = command === EMBEDDED.agentCommand;
  // The embedded agent exits when its stdin, a pipe from this process, closes (embedded.mjs): a worker that dies leaves no agent behind.
  const env = { ...environment, AGENT_HEALTH_PORT: port === undefined ? undefined : String(port), ...(embedded && { EMBEDDED_EXIT_WITH_PARENT: '1' }) };
  const cwd = embedded ? ROOT : undefined;
  const child = spawn(shellCommand(command), { shell: true, detached: true, cwd, env, stdio: [embedded ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    baseUrl: `http://127.0.0.1:${port ?? 8081}`,
    output: () => out.slice(-2000),
    signal: (name) => {
      try {
        process.kill(-child.pid!, name);
      } catch {
        /* already gone */
      }
    },
    exited,
  };
}

/** Another run of the suite on this machine held the port's lock too long: the suite's own contention, never a finding about the agent. */
export class PortLockTimeout extends Error {}

/** Runs `fn` holding a machine-wide lock on `port`, so that two runs never both start an agent on it; a dead owner's lock is taken over. */
export async function withPortLock<T>(port: number, fn: () => Promise<T>, waitMs = 30_000): Promise<T> {
  const file = join(tmpdir(), `contract-suite-port-${port}.lock`);
  for (const deadline = Date.now() + waitMs; ; await new Promise((r) => setTimeout(r, 200))) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      break;
    } catch {
      const owner = liveOwner(file);
      if (!owner) rmSync(file, { force: true });
      else if (Date.now() > deadline)
        throw new PortLockTimeout(`port ${port} stayed locked by process ${owner} (another run of the suite) for ${waitMs / 1000} s`);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(file, { force: true });
  }
}

/** The live process that holds a lock file; undefined when the file or its owner is gone. */
function liveOwner(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8'));
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}
