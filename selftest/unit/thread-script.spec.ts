// A module bundled for a worker thread: built once, reused while its sources stand, built again when a
// file it imports changes, and runnable by a thread with no TypeScript loader.
import { expect, test } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { threadScript } from '../../support/run/thread-script';

// Sources and bundles in a folder of the test's own (made in the test: the runner loads this file too), removed after it.
let DIR = '';
test.afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const run = (script: string) =>
  new Promise<unknown>((resolve, reject) => {
    const w = new Worker(script);
    w.once('message', (m) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });

test('built once, reused while its sources stand, built again when an imported file changes', async () => {
  DIR = mkdtempSync(join(tmpdir(), 'thread-script-test-'));
  const SRC = join(DIR, 'src');
  const OUT = join(DIR, 'bundles');
  mkdirSync(SRC, { recursive: true });
  writeFileSync(join(SRC, 'answer.ts'), 'export const answer: number = 41;\n');
  writeFileSync(
    join(SRC, 'entry.ts'),
    "import { parentPort } from 'node:worker_threads';\nimport { answer } from './answer';\nparentPort!.postMessage(answer + 1);\n",
  );
  const first = await threadScript(join(SRC, 'entry.ts'), OUT);
  expect(await run(first)).toBe(42);
  const built = statSync(first).mtimeMs;

  const again = await threadScript(join(SRC, 'entry.ts'), OUT);
  expect(again).toBe(first);
  expect(statSync(again).mtimeMs).toBe(built);

  writeFileSync(join(SRC, 'answer.ts'), 'export const answer: number = 99;\n');
  const changed = await threadScript(join(SRC, 'entry.ts'), OUT);
  expect(changed).not.toBe(first);
  expect(await run(changed)).toBe(100);
});
