/**
 * The embedded reference service, started by global setup: it boots (about 200 ms) while the runner
 * loads the tests' modules, where a `webServer` would boot it first and load them after. Its port goes
 * into the runner's environment, which the workers (started after global setup) read.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Config } from './config';
import { SuiteError } from './suite-error';

const ROOT = join(__dirname, '../..');
const READY_TIMEOUT_MS = 20_000;
const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;

let starting: Promise<number> | undefined;

/** Starts the service once per runner (UI mode keeps it between runs), in the configuration's environment; its stderr goes to the runner's, line by line. */
export function startEmbeddedService({ rateLimit, environment }: Pick<Config, 'rateLimit' | 'environment'>, port = 0): Promise<number> {
  if (starting) return starting;
  const child = spawn(process.execPath, [join(ROOT, 'support/run/embedded.mjs'), 'reference/service/main.ts'], {
    cwd: ROOT,
    env: {
      ...environment,
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMIT_MAX: String(rateLimit.max),
      RATE_LIMIT_WINDOW_S: String(rateLimit.windowSeconds),
      // Its stdin is a pipe from this process: the service exits when it closes (embedded.mjs), however this process ends.
      EMBEDDED_EXIT_WITH_PARENT: '1',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`[embedded service] ${line}\n`));
  return (starting = new Promise((resolve, reject) => {
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
  }));
}
