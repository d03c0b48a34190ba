/**
 * The compare page's test renders recorded results of two real runs instead of making them (two whole
 * suite runs, one with a dozen faults: a minute of CPU): the two sides as compare mode hands them to the
 * comparison, gzipped JSON beside the other fixtures. `npx tsx selftest/self/record-compare.ts` records
 * them again; reports.spec.ts checks against a small live run of each side that the recording is current.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Side } from '../../reporters/compare/model';
import { CHECK_UPDATE_GENERATED } from '../faults/generated/check-update';
import { RUNTIME_UNKNOWN_GENERATED } from '../faults/generated/runtime';

/**
 * A large difference set in both directions: A has one fault, B a dozen others. B's faults fail one test
 * each where they can (a cell of the update, one class of unknown runtime id, one authentication probe),
 * and a runtime body field (every version) for a body difference: a fault that breaks every refusal
 * (cu-500) fails twenty tests, and each failed test costs Playwright a new worker.
 */
const acceptedCell = (clause: string) => CHECK_UPDATE_GENERATED.find((f) => f.clause === clause && f.fault.startsWith('accept:API:'))!.fault;
const foundUnknownId = RUNTIME_UNKNOWN_GENERATED.find((f) => f.fault.endsWith(':found'))!;
export const COMPARE_A_FAULT = 'errbody:check-read:404:wording';
export const COMPARE_B_FAULTS = [
  'rt-node-no-v',
  foundUnknownId.fault,
  'auth-skip:runtime:key',
  ...['CU-2', 'CU-3', 'CU-4', 'CU-5', 'CU-6', 'FO-2'].map(acceptedCell),
  'rl-none',
  'agent-no-health',
  'fo-zero-any',
].join(',');
export const COMPARE_A = `embedded:${COMPARE_A_FAULT}`;
export const COMPARE_B = `embedded:${COMPARE_B_FAULTS}`;

export const RECORDING = join(__dirname, '../fixtures/compare-sides.json.gz');

export interface Recording {
  /** The compare mode arguments the sides were run with. */
  targets: [string, string];
  sides: [Side, Side];
}

export const readRecording = (): Recording => JSON.parse(gunzipSync(readFileSync(RECORDING)).toString('utf8')) as Recording;

/**
 * A record without what differs from run to run: the embedded service's port, the ids made up per run,
 * timestamps, and the rate limit's counters (they depend on which tests ran before).
 */
export const steady = (v: unknown): string =>
  JSON.stringify(v)
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, 'GUID')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'TIME')
    .replace(/"((x-)?ratelimit[a-z-]*|retry-after)":"[^"]*"/gi, '"$1":"N"');
