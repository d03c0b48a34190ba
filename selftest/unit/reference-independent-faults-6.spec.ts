// The sixth batch of independent faults (ind6-*, selftest/faults/catalogue/independent-faults.ts INDEPENDENT_FAULTS_6):
// the catalogue and the service still usable with each (testGeneration), and the agent faults, the agent
// run as a child process. That each service fault breaks the reference: fault-probes.spec.ts.
import { expect, test } from '@playwright/test';
import { afterSigterm, testGeneration } from './reference-fault-harness';
import { INDEPENDENT_FAULTS_6 } from '../faults/catalogue/independent-faults';
import { INDEPENDENT_FAULTS_6 as MEASURED } from '../faults/independent';

testGeneration(6, INDEPENDENT_FAULTS_6, MEASURED);

// ---- agent faults: the agent as a child process on a free port -------------------------------------

test.describe.configure({ mode: 'parallel' });

test('independent agent fault ind6-agent-ready-again-stopping: readiness 200 again at the end of the drain', async () => {
  const probes: Array<[number, string]> = [
    [200, '/-/readiness'],
    [1300, '/-/readiness'],
  ];
  expect(await afterSigterm([], probes)).toEqual([503, 503]);
  expect(await afterSigterm(['ind6-agent-ready-again-stopping'], probes)).toEqual([503, 200]);
});

test('independent agent fault ind6-agent-close-listener-first: probes refused during the drain', async () => {
  const probes: Array<[number, string]> = [
    [200, '/-/readiness'],
    [300, '/-/liveness'],
  ];
  expect(await afterSigterm([], probes)).toEqual([503, 200]);
  expect(await afterSigterm(['ind6-agent-close-listener-first'], probes)).toEqual(['refused', 'refused']);
});
