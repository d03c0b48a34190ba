/**
 * The embedded reference service, started by the runner as soon as its configuration is read: it boots
 * (about 200 ms) while Playwright sets up and loads the tests, where a `webServer` would make both wait
 * for it. Global setup waits for its port, which the workers (started after it) read from the environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { RateLimit } from './config';
import { SuiteError } from './suite-error';

const READY_TIMEOUT_MS = 20_000;
const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;

let starting: Promise<number> | undefined;

/** Starts the service once per runner; its stderr goes to the runner's, line by line. */
export function startEmbeddedService(rateLimit: RateLimit, port = 0): void {
  if (starting) return;
  const child = spawn(process.execPath, ['support/run/embedded.mjs', 'reference/service/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_MAX: String(rateLimit.max), RATE_LIMIT_WINDOW_S: String(rateLimit.windowSeconds) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Not the runner's own exit: a service left behind would hold its port and the machine's memory.
  process.on('exit', () => child.kill('SIGKILL'));
  createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`[embedded service] ${line}\n`));
  starting = listeningPort(child);
  // Awaited in global setup; until then a failure must not count as unhandled.
  starting.catch(() => {});
}

function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (why: string) => reject(new SuiteError('unreachable', `the embedded reference service did not start: ${why}`));
    const timer = setTimeout(() => fail(`no "listening" line within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const port = LISTENING.exec(line)?.[1];
      if (!port) return;
      clearTimeout(timer);
      lines.close();
      // The rest of its output is not read: drained, so that a full pipe never blocks it.
      child.stdout!.resume();
      resolve(Number(port));
    });
    child.on('error', (e) => fail(e.message));
    child.on('exit', (code, signal) => fail(`it exited (${signal ?? `code ${code}`})`));
  });
}

/** The port the service listens on, once it does; undefined when this runner started none. */
export const embeddedServicePort = (): Promise<number> | undefined => starting;
