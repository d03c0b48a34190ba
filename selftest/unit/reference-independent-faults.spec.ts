// The independent faults (selftest/faults/catalogue/independent-faults.ts): the catalogue and what each is measured
// against, the service still usable with each, and the agent faults, the agent run as a child process.
// That each service fault breaks the reference is shown by the generated probe (fault-probes.spec.ts).
import { expect, test } from '@playwright/test';
import type { FaultName } from '../faults/catalogue/faults';
import { afterSigterm, expectMeasured, expectUsableWith } from './reference-fault-harness';
import { INDEPENDENT_FAULTS } from '../faults/catalogue/independent-faults';
import { INDEPENDENT_FAULTS as MEASURED } from '../faults/independent';

/** One endpoint probed at each moment (ms after SIGTERM). */
const at = (path: string, moments: number[]): Array<[number, string]> => moments.map((m) => [m, path]);

const AGENT_FAULTS = Object.keys(INDEPENDENT_FAULTS).filter((f) => f.startsWith('ind-agent-'));

test('independent faults: all in the catalogue, named ind-*, each with a measured entry', () => {
  for (const f of Object.keys(INDEPENDENT_FAULTS)) expect(f).toMatch(/^ind-/);
  expect(Object.keys(INDEPENDENT_FAULTS)).toHaveLength(25);
  expectMeasured(INDEPENDENT_FAULTS, MEASURED);
});

test('independent faults: the served document stays valid OpenAPI, and ordinary requests stay 200', async () => {
  // A service per fault, one after another: on a loaded machine (npm test runs its parts side by side) more than 30 s.
  test.setTimeout(120_000);
  await expectUsableWith(Object.keys(INDEPENDENT_FAULTS).filter((f) => !AGENT_FAULTS.includes(f)) as FaultName[]);
});

// ---- agent faults: the agent as a child process on a free port -------------------------------------

test.describe.configure({ mode: 'parallel' });

test('independent agent fault ind-agent-late-draining: readiness 200 just after SIGTERM', async () => {
  expect(await afterSigterm([], at('/-/readiness', [100, 700]))).toEqual([503, 503]);
  expect(await afterSigterm(['ind-agent-late-draining'], at('/-/readiness', [100, 700]))).toEqual([200, 503]);
});

test('independent agent fault ind-agent-liveness-fails-before-exit: liveness 503 at the end of the drain', async () => {
  expect(await afterSigterm([], at('/-/liveness', [200, 1300]))).toEqual([200, 200]);
  expect(await afterSigterm(['ind-agent-liveness-fails-before-exit'], at('/-/liveness', [200, 1300]))).toEqual([200, 503]);
});
