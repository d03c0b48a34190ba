// npm run compare with a side the suite would refuse: one line naming the side and its variables, exit
// code 3, before either run starts.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

const ROOT = join(__dirname, '../..');

function compare(env: Record<string, string>, ...targets: string[]) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(COMPARE_|API_KEY|ACCOUNT_ID|BASE_URL)/.test(k)));
  return spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/compare.ts'), ...targets], {
    cwd: ROOT,
    env: { ...clean, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
}

test('a remote side without its key is named with its own variable, exit code 3, nothing run', () => {
  const r = compare({}, 'embedded', 'http://127.0.0.1:9');
  expect(r.status).toBe(3);
  expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^compare: side B: API_KEY is required .*COMPARE_B_<VARIABLE>/)]);
  expect(r.stdout).not.toContain('running the suite');
});

test("a side's malformed setting is named for that side", () => {
  const r = compare({ COMPARE_A_API_KEY: 'k', COMPARE_A_ACCOUNT_ID: 'not-a-guid' }, 'http://127.0.0.1:9', 'embedded');
  expect(r.status).toBe(3);
  expect(r.stderr).toMatch(/^compare: side A: ACCOUNT_ID must be a GUID/);
});
