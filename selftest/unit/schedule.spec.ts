// The tests that run last (support/run/schedule.ts): how their order is decided, and the runs a user
// makes of them (@burst splits a sharded run, examples/github-actions-sharded.yml).
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { BURST_FILE, burstInOwnProject, burstInRun, decideBurstInRun, decideOrder, lastLock } from '../../support/run/schedule';
import { TEST_FILES } from '../../support/run/test-files';
import { readSelection } from '../../support/run/selection';

const ROOT = join(__dirname, '../..');

test('TEST_FILES names every test file and only those; the burst matcher one of them', () => {
  const files = readdirSync(join(ROOT, 'tests')).map((f) => `tests/${f}`);
  expect(Object.values(TEST_FILES).sort()).toEqual(files.sort());
  expect(files.filter((f) => BURST_FILE.test(f))).toEqual([TEST_FILES.burst]);
});

/** The command line's selection (selection.ts), as playwright.config.ts reads it once. */
const cli = (...args: string[]) => readSelection(['node', 'playwright', 'test', ...args]);

test('the runner decides the order once, from its command line; its workers read the decision', () => {
  const runner: NodeJS.ProcessEnv = {};
  expect(decideOrder(cli(), runner)).toBe('exclusive');
  expect(lastLock(runner)).toBe('-exclusive-');
  // A worker has no --shuffle on its command line: the runner's decision stands.
  const shuffled: NodeJS.ProcessEnv = {};
  expect(decideOrder(cli('--shuffle'), shuffled)).toBe('own-project');
  expect(decideOrder(readSelection(['node', 'worker']), shuffled)).toBe('own-project');
  expect(lastLock(shuffled)).toBeUndefined();
  expect(decideOrder(cli('--shuffle=42'), {})).toBe('own-project');
  // A seed after a space is the option's value, not a file that would make the run partial.
  expect(cli('--shuffle', '42')).toMatchObject({ shuffle: true, files: [], partial: undefined });
  expect(decideOrder(cli('--shuffle', '42'), {})).toBe('own-project');
  const manyTargets: NodeJS.ProcessEnv = {};
  burstInOwnProject(manyTargets);
  expect(lastLock(manyTargets)).toBeUndefined();
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
  expect(rest.some((l) => l.includes('rate-limit-burst'))).toBe(false);
  expect(burst.length + rest.length).toBe(all.length);
});

test('the burst is out of a run only where its command line certainly leaves it out: files named, none the burst, or @burst grepped out', () => {
  const decide = (...args: string[]) => decideBurstInRun(cli(...args), {});
  expect(decide()).toBe(true);
  expect(decide(TEST_FILES.checkUpdate, TEST_FILES.auth, '--workers', '2')).toBe(false);
  expect(decide(TEST_FILES.errors, TEST_FILES.burst)).toBe(true);
  // A pattern that is no file may match the burst's file: in.
  expect(decide(TEST_FILES.errors, 'rate')).toBe(true);
  expect(decide('--grep-invert', '@burst')).toBe(false);
  expect(decide('--grep-invert=@burst')).toBe(false);
  // A worker reads the runner's decision.
  const env: NodeJS.ProcessEnv = {};
  decideBurstInRun(cli(TEST_FILES.errors), env);
  expect(burstInRun(undefined, env)).toBe(false);
  expect(burstInRun(undefined, {})).toBe(true);
  // A project that names its files, none the burst's (a run of many targets: the burst has a target of its own).
  expect(burstInRun({ testMatch: [/(^|\/)errors\.spec\.ts$/] }, {})).toBe(false);
  expect(burstInRun({ testMatch: [/(^|\/)errors\.spec\.ts$/, /(^|\/)rate-limit-burst\.spec\.ts$/] }, {})).toBe(true);
  expect(burstInRun({ testMatch: '**/*.spec.ts' }, {})).toBe(true);
});
