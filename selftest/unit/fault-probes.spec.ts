// The catalogue's faults no list expects (settings a correct service may choose, which the suite must pass) each change some answer
// of the generic battery (probe-battery.ts): a clean reference service and one with the fault, under a few settings. A fault a list
// expects is proven by its catch in the self-test, or, when it survives, probed there (selftest/self/probe.ts), which tells a miss of
// the suite from a fault that breaks nothing. The agent's faults are a process's life, not the service's answers.
import { expect, test } from '@playwright/test';
import { FAULTS } from '../faults/catalogue/faults';
import { LISTED_FAULTS } from '../faults';
import { isAgentFault, Prober } from '../self/probe';
import { runBattery, settingsFor } from './probe-battery';

test('every service fault no list expects changes some answer of the generic battery', async () => {
  const listed = new Set(LISTED_FAULTS.map((f) => f.fault));
  const unlisted = Object.keys(FAULTS).filter((f) => !listed.has(f) && !isAgentFault(f));
  expect(unlisted.length).toBeGreaterThan(0);
  const prober = new Prober();
  const shown = await Promise.all(unlisted.map((f) => prober.changesAnswers(f)));
  expect(unlisted.filter((_, i) => !shown[i]).map((f) => `${f}: no probe differed`)).toEqual([]);
});

test('the battery is deterministic: two clean services answer it alike, under every setting', async () => {
  for (const setting of [...settingsFor(), ...settingsFor({ RATE_LIMIT_ALGORITHM: 'sliding' })]) {
    const first = await runBattery([], setting);
    expect((await runBattery([], setting, first.answers)).differs, setting.name).toBe(false);
  }
});
