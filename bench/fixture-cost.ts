/**
 * Why support/fixtures.ts builds on Playwright's root test (`_baseTest`) and not on the public `test`: the public one sets up
 * and tears down its browser-side auto fixtures (trace recording, context options) around every test, each a step with a
 * captured, source-mapped stack. The same thousand empty tests on each, one worker: the run's time is its CPU.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const TESTS = 1000;

async function runMs(base: 'root' | 'public'): Promise<number> {
  const started = Date.now();
  const config = join(__dirname, 'fixture-cost/playwright.config.ts');
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--config', config], {
    cwd: ROOT,
    env: { ...process.env, FIXTURE_BASE: base },
    stdio: 'ignore',
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`the empty tests on the ${base} test exited ${code}`);
  return Date.now() - started;
}

export async function fixtureCost(rounds: number, out: (line: string) => void): Promise<void> {
  const runs = { root: [] as number[], public: [] as number[] };
  for (let r = 0; r < rounds; r++) for (const base of ['root', 'public'] as const) runs[base].push(await runMs(base));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const [root, pub] = [median(runs.root), median(runs.public)];
  out(`fixture cost: ${TESTS} empty tests, one worker, median of ${rounds}`);
  out(
    `  on the root test (_baseTest): ${(root / 1000).toFixed(2)} s; on the public test: ${(pub / 1000).toFixed(2)} s: ${((pub - root) / TESTS).toFixed(1)} ms more per test`,
  );
}
