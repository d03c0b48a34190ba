// The tests that run last (support/run/schedule.ts): how their order is decided, and the runs a user
// makes of them (the burst's file sorts last; @burst splits a sharded run, examples/github-actions-sharded.yml).
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { BURST_FILE, decideOrder, keepFileOrder, lastLock } from '../../support/run/schedule';
import { TEST_FILES } from '../../support/run/test-files';

const ROOT = join(__dirname, '../..');

test('TEST_FILES names every test file and only those, in the order Playwright hands them out (by name)', () => {
  const files = readdirSync(join(ROOT, 'tests'))
    .sort((a, b) => a.localeCompare(b))
    .map((f) => `tests/${f}`);
  expect(Object.values(TEST_FILES)).toEqual(files);
});

test("the burst file sorts after every other family (the self-test runs a target's files in one worker, in name order)", () => {
  const files = readdirSync(join(ROOT, 'tests')).sort((a, b) => a.localeCompare(b));
  expect(files.filter((f) => BURST_FILE.test(f))).toHaveLength(1);
  expect(files.at(-1), files.join(', ')).toMatch(BURST_FILE);
});

test('the runner decides the order once, from its command line; its workers read the decision', () => {
  const runner: NodeJS.ProcessEnv = {};
  expect(decideOrder(['node', 'playwright', 'test'], runner)).toBe('exclusive');
  expect(lastLock(runner)).toBe('-exclusive-');
  // A worker has no --shuffle on its command line: the runner's decision stands.
  const shuffled: NodeJS.ProcessEnv = {};
  expect(decideOrder(['node', 'playwright', 'test', '--shuffle'], shuffled)).toBe('teardown');
  expect(decideOrder(['node', 'worker'], shuffled)).toBe('teardown');
  expect(lastLock(shuffled)).toBeUndefined();
  expect(decideOrder(['node', 'playwright', 'test', '--shuffle=42'], {})).toBe('teardown');
  const faultRun: NodeJS.ProcessEnv = {};
  keepFileOrder(faultRun);
  expect(lastLock(faultRun)).toBeUndefined();
  expect(lastLock({})).toBe('-exclusive-');
});

const listed = (...args: string[]) =>
  execFileSync(process.execPath, [join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--list', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONTRACT_') && !k.startsWith('TEST_'))), BASE_URL: '' },
  })
    .split('\n')
    .filter((l) => l.includes(' › '));

test('@burst selects the burst alone and --grep-invert @burst everything else (the sharded CI example)', () => {
  const all = listed();
  const burst = listed('--grep', '@burst');
  const rest = listed('--grep-invert', '@burst');
  expect(burst.length).toBeGreaterThan(0);
  expect(burst.every((l) => BURST_FILE.test(l.split(':')[0]))).toBe(true);
  expect(rest.some((l) => l.includes('z-rate-limit-burst'))).toBe(false);
  expect(burst.length + rest.length).toBe(all.length);
});
