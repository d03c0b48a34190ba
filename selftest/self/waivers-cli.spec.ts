/**
 * Waivers as a user meets them: a known violation waived until a later date leaves the run green with
 * the clause `waived`; past its date the same violation fails the run and one line says the waiver
 * expired; a waiver that covered nothing is named stale; a bad file stops the run with exit 3. Each run
 * is one test of the runtime family against a reference whose runtimes lack the `v` prefix (RT-3), but
 * the README's example, which is run with the whole suite: one cause is waived as the two clauses it
 * breaks, and nothing else fails.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runSuite } from '../../scripts/suite-runner';
import { TEST_FILES } from '../../support/run/test-files';

const FAULT = 'rt-node-no-v';
// One test: two runtimes read at once, each breaking RT-3.
const ONE_TEST = [TEST_FILES.runtime, '--grep', 'get one runtime runtimes 2026\\.04, 2025\\.04, read at once( |$)'];

function waiverFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'waivers-')), 'contract-waivers.yaml');
  writeFileSync(file, text);
  return file;
}

test('a waiver dated later covers the violation: exit 0, the clause waived with its reason and date; a waiver that covered nothing is stale', async () => {
  const file = waiverFile(
    [
      '- clause: RT-3',
      '  place: runtime',
      '  reason: TICKET-123, the v prefix ships next week',
      '  until: 2999-12-31',
      // The runtimes break the target's own spec too (it declares the pattern): one cause, two clauses.
      '- clause: SPEC-9',
      '  reason: TICKET-123, the runtimes do not match the pattern our spec declares',
      '  until: 2999-12-31',
      '- clause: RT-2',
      '  reason: fixed last week',
      '  until: 2999-12-31',
      '',
    ].join('\n'),
  );
  const run = await runSuite({ fault: FAULT, args: ONE_TEST, env: { WAIVERS_FILE: file } });
  expect(run.exitCode, run.output.slice(-2000)).toBe(0);
  const rt3 = run.matrix!.clauses.find((c) => c.id === 'RT-3')!;
  expect(rt3).toMatchObject({ status: 'waived', waivers: [{ entry: 1, reason: 'TICKET-123, the v prefix ships next week', until: '2999-12-31' }] });
  expect(run.matrix!.summary.waived).toBe(2);
  // The failure is still there, carrying its waiver.
  expect(run.failures.some((f) => f.clause === 'RT-3' && f.waiver?.entry === 1)).toBe(true);
  expect(run.output).toMatch(/clauses: \d+ verified, 2 waived, 0 failed/);
  expect(run.output).toContain(`waiver used: ${file} entry 1 (clause "RT-3", place "runtime") covered 2 failures, until 2999-12-31`);
  expect(run.output).toContain(`waiver stale: ${file} entry 3 (clause "RT-2") covered nothing in this run`);
});

test('past its date a waiver covers nothing: the violation fails the run (exit 1), one line says the waiver expired, and the console a line per failed clause', async () => {
  const file = waiverFile('- clause: RT-3\n  reason: TICKET-123\n  until: 2000-01-01\n');
  const run = await runSuite({ fault: FAULT, args: ONE_TEST, env: { WAIVERS_FILE: file } });
  expect(run.exitCode, run.output.slice(-2000)).toBe(1);
  expect(run.matrix!.clauses.find((c) => c.id === 'RT-3')!.status).toBe('failed');
  expect(run.output.split('\n').filter((l) => l.includes('expired'))).toEqual([
    `waiver expired after 2000-01-01: ${file} entry 1 (clause "RT-3") covers nothing now; its 2 failures fail the run`,
  ]);
  // A line per failed clause (the runtimes break the target's spec too), with its first received value and where the details are, and no curl.
  const lines = run.output.split('\n').filter((l) => l.startsWith('✗ '));
  expect(lines.map((l) => l.split(' ')[1]).sort()).toEqual(['RT-3', 'SPEC-9']);
  expect(lines.find((l) => l.startsWith('✗ RT-3'))).toMatch(/failures? at 1 place; first: .*\(received "\d+\.\d+\.\d+"\); details: .*contract-matrix\.md$/);
  expect(run.output).not.toMatch(/curl/);
  expect(run.output.split('\n').length).toBeLessThan(20);
});

test('a waiver file with an unknown clause stops the run before any test, with one line naming the entry and exit code 3', async () => {
  const file = waiverFile('- clause: RT-3\n  reason: r\n  until: 2999-12-31\n- clause: XX-9\n  reason: r\n  until: 2999-12-31\n');
  const run = await runSuite({ args: ONE_TEST, env: { WAIVERS_FILE: file } });
  expect(run.exitCode).toBe(3);
  expect(run.output.trim()).toBe(`configuration error: WAIVERS_FILE ${file}: entry 2 (clause "XX-9"): unknown clause`);
});

test("the README's waiver example covers the whole failure it names, and has not expired: the whole suite against that fault exits 0; one cause, the two clauses it breaks, nothing else", async () => {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
  const example = /```yaml\n(# contract-waivers\.yaml\n[\s\S]*?)```/.exec(readme)?.[1];
  expect(example, 'the README shows a contract-waivers.yaml example').toBeTruthy();
  const file = waiverFile(example!);
  const run = await runSuite({ fault: FAULT, env: { WAIVERS_FILE: file } });
  expect(run.exitCode, run.output.slice(-2000)).toBe(0);
  expect(run.output).not.toContain('waiver expired');
  // Every test ran: runtimes without the v their spec declares break RT-3 and SPEC-9 and nothing else.
  expect(run.matrix!.clauses.filter((c) => c.status === 'waived').map((c) => c.id)).toEqual(['SPEC-9', 'RT-3']);
  expect(run.matrix!.clauses.filter((c) => c.status === 'failed')).toEqual([]);
  // Seen by the runtime and the authentication tests alike, one failure per operation and schema rule.
  const spec9 = run.matrix!.clauses.find((c) => c.id === 'SPEC-9')!.failures;
  expect(spec9.map((f) => f.key)).toEqual([...new Set(spec9.map((f) => f.key))]);
  expect(spec9.find((f) => f.key?.startsWith('GET /v1/runtimes/{id} 200 '))!.sightings).toBeGreaterThan(1);
});
