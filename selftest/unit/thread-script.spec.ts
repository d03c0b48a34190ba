// A module bundled for a worker thread: built once, reused while its sources stand, built again when a
// file it imports changes, and runnable by a thread with no TypeScript loader.
import { expect, test } from '@playwright/test';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { threadScript } from '../../support/run/thread-script';

const ROOT = join(__dirname, '../..');
// Under the kept cache, so that nothing of the test is left among the sources.
const DIR = `node_modules/.cache/contract-suite/thread-script-test-${process.pid}`;

test.afterAll(() => {
  rmSync(join(ROOT, DIR), { recursive: true, force: true });
  // The bundles and the list of this test's entry, named after its folder.
  const threads = join(ROOT, 'node_modules/.cache/contract-suite/threads');
  const mine = DIR.replace(/[^A-Za-z0-9]+/g, '-');
  for (const name of readdirSync(threads)) if (name.startsWith(mine)) rmSync(join(threads, name), { force: true });
});

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
  mkdirSync(join(ROOT, DIR), { recursive: true });
  writeFileSync(join(ROOT, DIR, 'answer.ts'), 'export const answer: number = 41;\n');
  writeFileSync(
    join(ROOT, DIR, 'entry.ts'),
    "import { parentPort } from 'node:worker_threads';\nimport { answer } from './answer';\nparentPort!.postMessage(answer + 1);\n",
  );
  const first = await threadScript(`${DIR}/entry.ts`);
  expect(await run(first)).toBe(42);
  const built = statSync(first).mtimeMs;

  const again = await threadScript(`${DIR}/entry.ts`);
  expect(again).toBe(first);
  expect(statSync(again).mtimeMs).toBe(built);

  writeFileSync(join(ROOT, DIR, 'answer.ts'), 'export const answer: number = 99;\n');
  const changed = await threadScript(`${DIR}/entry.ts`);
  expect(changed).not.toBe(first);
  expect(await run(changed)).toBe(100);
});
