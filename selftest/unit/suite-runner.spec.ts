// The suite runner's clean-up: a run stopped at its time limit must take its whole tree with it.
import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { descendantsOf } from '../../scripts/suite-runner';

test('the processes below a child are found, grandchildren included', async () => {
  const child = spawn('sh', ['-c', 'sleep 30 & sh -c "sleep 30" & wait'], { stdio: 'ignore' });
  try {
    await expect.poll(() => descendantsOf(child.pid).length, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
  } finally {
    for (const pid of [...descendantsOf(child.pid), child.pid!]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
  expect(descendantsOf(undefined)).toEqual([]);
});
