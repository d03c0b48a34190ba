/**
 * The matrix reporter (and the JUnit XML it writes) reads the failures and what was tried from the
 * tests' attachments, never from error text: fed hand-made results, it writes what the data says.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { FullConfig, FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import ClauseMatrixReporter from '../../reporters/clause-matrix';
import { readReport, REPORT_FILES, type Matrix } from '../../support/run/report-files';
import { FAILURES_ATTACHMENT, makeFailure, TRIED_ATTACHMENT } from '../../support/checks/failure';
import { readSelection } from '../../support/run/selection';
import { clauseTags, type ClauseId } from '../../support/document/clauses';
import { clauses } from '../../support/fixtures';

interface Fake {
  title: string;
  clauses: string[];
  status: TestResult['status'];
  failures?: unknown[];
  tried?: unknown[];
  error?: string;
  skip?: string;
}

function fakeRun(fakes: Fake[]) {
  const tests = fakes.map((f) => {
    const annotations = [...f.clauses.map((c) => ({ type: 'clause', description: c })), ...(f.skip ? [{ type: 'skip', description: f.skip }] : [])];
    const t = {
      title: f.title,
      titlePath: () => ['', 'contract', 'runtime.spec.ts', 'family', f.title],
      location: { file: join(process.cwd(), 'tests/runtime.spec.ts'), line: 1, column: 1 },
      annotations,
      // As clauses() declares them: an annotation and a tag per clause.
      tags: clauseTags(f.clauses as ClauseId[]),
      parent: { project: () => ({ name: 'contract' }) },
      outcome: () => (f.status === 'passed' ? 'expected' : f.status === 'skipped' ? 'skipped' : 'unexpected'),
    } as unknown as TestCase;
    const attachments = [
      ...(f.failures ? [{ name: FAILURES_ATTACHMENT, contentType: 'application/json', body: Buffer.from(JSON.stringify(f.failures)) }] : []),
      ...(f.tried ? [{ name: TRIED_ATTACHMENT, contentType: 'application/json', body: Buffer.from(JSON.stringify(f.tried)) }] : []),
    ];
    const r = { status: f.status, duration: 12, attachments, errors: f.error ? [{ message: f.error }] : [], annotations: [] } as unknown as TestResult;
    return { t, r };
  });
  const suite = { allTests: () => tests.map((x) => x.t) } as unknown as Suite;
  const config = { configFile: join(process.cwd(), 'playwright.config.ts'), rootDir: join(process.cwd(), 'tests') } as unknown as FullConfig;
  return { tests, suite, config };
}

const FAKES: Fake[] = [
  {
    title: 'runtime 2026.04',
    clauses: ['RT-1', 'RT-3'],
    status: 'failed',
    failures: [
      makeFailure({ clause: 'RT-3', title: 'nodeJsVersion is not v<major>.<minor>.<patch>', received: '24.1.0', allowed: 'v1.2.3' }, { place: 'runtime' }),
    ],
    tried: [
      { clause: 'RT-1', place: 'runtime' },
      { clause: 'RT-3', place: 'runtime', valueClass: 'accepted version' },
    ],
  },
  // The error text names another clause: the reporters must not believe it.
  { title: 'runtime 2025.04', clauses: ['RT-1'], status: 'failed', error: 'RT-5: something in the text', failures: [] },
  { title: 'skipped one', clauses: ['CU-1'], status: 'skipped', skip: 'CHECK_ID is not set' },
];

const triedOf = (...clauses: string[]) => clauses.map((clause) => ({ clause, place: 'runtime' }));

/** Runs the matrix reporter over fake results; returns the matrix it wrote, its folder and what it printed. */
async function matrixOf(fakes: Fake[], options: ConstructorParameters<typeof ClauseMatrixReporter>[0] = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'matrix-'));
  const { tests, suite, config } = fakeRun(fakes);
  const reporter = new ClauseMatrixReporter({ ...options, outputDir: dir });
  reporter.onBegin(config, suite);
  for (const { t, r } of tests) reporter.onTestEnd(t, r);
  const write = process.stdout.write;
  let printed = '';
  process.stdout.write = (text: string | Uint8Array) => ((printed += String(text)), true);
  try {
    await reporter.onEnd({ status: 'failed' } as FullResult);
  } finally {
    process.stdout.write = write;
  }
  // Read through its schema, as compare mode and the self-test read it: a file that does not match reads as nothing.
  const m = readReport(dir, REPORT_FILES.matrixJson);
  if (!m || 'stopped' in m) throw new Error('contract-matrix.json does not match its schema');
  return { m, dir, printed };
}

test('the matrix takes failures and places from the attachments; a test that failed before any check gives its first line', async () => {
  const { m, dir } = await matrixOf(FAKES);
  const row = (id: string) => m.clauses.find((c) => c.id === id)!;
  expect(row('RT-3').status).toBe('failed');
  expect(row('RT-3').failures[0]).toMatchObject({ clause: 'RT-3', place: 'runtime', test: 'runtime.spec.ts › family › runtime 2026.04' });
  expect(row('RT-3').valueClasses).toEqual(['accepted version']);
  expect(row('RT-1').places).toEqual(['runtime']);
  expect(row('RT-1').failures.map((f) => f.title)).toEqual(['RT-5: something in the text']);
  expect(row('RT-5').status).toBe('not covered');
  expect(row('CU-1')).toMatchObject({ status: 'skipped', reasons: ['CHECK_ID is not set'] });
  expect(readFileSync(join(dir, 'contract-matrix.md'), 'utf8')).toContain('places: runtime');
});

test('a run test covers what it tried, not what it declares; a skipped one, what it declares', async () => {
  const { m } = await matrixOf([
    { title: 'runtime 2026.04', clauses: ['RT-1', 'RT-2'], status: 'passed', tried: triedOf('RT-1', 'ERR-1') },
    { title: 'skipped one', clauses: ['CU-1'], status: 'skipped', skip: 'CHECK_ID is not set' },
  ]);
  const row = (id: string) => m.clauses.find((c) => c.id === id)!;
  expect(['RT-1', 'ERR-1', 'RT-2'].map((id) => row(id).status)).toEqual(['verified', 'verified', 'not covered']);
  expect(row('CU-1')).toMatchObject({ status: 'skipped', reasons: ['CHECK_ID is not set'] });
});

test("one response breaking its spec, seen by many tests, is one SPEC-9 failure with its sightings; the tests' own clauses stay verified", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'matrix-'));
  const mismatch = (place: string) => ({
    ...makeFailure(
      {
        clause: 'SPEC-9',
        field: '/nodeJsVersion',
        title: 'does not match the spec schema of GET /v1/runtimes/{id} 200',
        received: '22.1.0',
        allowed: 'must match pattern',
      },
      { place },
    ),
    key: 'GET /v1/runtimes/{id} 200 schema #/properties/nodeJsVersion/pattern',
  });
  const other = { ...mismatch('runtime'), key: 'GET /v1/runtimes/{id} 200 schema #/properties/name/pattern' };
  const { tests, suite, config } = fakeRun([
    { title: 'valid key', clauses: ['AUTH-4', 'SPEC-9'], status: 'failed', failures: [mismatch('runtime')], tried: triedOf('AUTH-4', 'SPEC-9') },
    { title: 'account GUID', clauses: ['AUTH-6', 'SPEC-9'], status: 'failed', failures: [mismatch('runtime')], tried: triedOf('AUTH-6', 'SPEC-9') },
    { title: 'runtime 2026.04', clauses: ['RT-1', 'SPEC-9'], status: 'failed', failures: [mismatch('runtime'), other], tried: triedOf('RT-1', 'SPEC-9') },
  ]);
  const reporter = new ClauseMatrixReporter({ outputDir: dir });
  reporter.onBegin(config, suite);
  for (const { t, r } of tests) reporter.onTestEnd(t, r);
  const write = process.stdout.write;
  process.stdout.write = () => true;
  try {
    await reporter.onEnd({ status: 'failed' } as FullResult);
  } finally {
    process.stdout.write = write;
  }
  const m = readReport(dir, REPORT_FILES.matrixJson) as Matrix;
  const row = (id: string) => m.clauses.find((c) => c.id === id)!;
  expect(m.clauses.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(['SPEC-9']);
  expect(['AUTH-4', 'AUTH-6', 'RT-1'].map((id) => row(id).status)).toEqual(['verified', 'verified', 'verified']);
  expect(row('SPEC-9').failures.map((f) => [f.key, f.sightings])).toEqual([
    [mismatch('runtime').key, 3],
    [other.key, 1],
  ]);
  expect(readFileSync(join(dir, 'contract-matrix.md'), 'utf8')).toContain('(seen 3 times)');
  // failures.json keeps every sighting, each with its test (the self-test reads it).
  expect(readReport(dir, REPORT_FILES.failures)).toHaveLength(4);
});

test('JUnit: a broken clause is a <failure> with its clause, an error before any check an <error>, a skip <skipped>', async () => {
  const { dir } = await matrixOf(FAKES);
  const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
  expect(xml).toContain('<testsuites name="contract suite" tests="3" failures="1" errors="1" skipped="1"');
  expect(xml).toContain('<failure type="ClauseFailure" message="RT-3: nodeJsVersion is not v&lt;major&gt;.&lt;minor&gt;.&lt;patch&gt;">');
  expect(xml).toContain('<error type="Error" message="RT-5: something in the text">');
  expect(xml).toContain('<skipped message="CHECK_ID is not set"/>');
});

const stamp = { entry: 1, reason: 'TICKET-123', until: '2999-12-31' };
const waivedFailure = {
  ...makeFailure({ clause: 'RT-3', title: 'nodeJsVersion is not v<major>.<minor>.<patch>', received: '24.1.0', allowed: 'v1.2.3' }, { place: 'runtime' }),
  waiver: stamp,
};
const WAIVED: Fake[] = [
  // Passed: its only failure was waived.
  {
    title: 'runtime 2026.04',
    clauses: ['RT-1', 'RT-3'],
    status: 'passed',
    failures: [waivedFailure],
    tried: [
      { clause: 'RT-1', place: 'runtime' },
      { clause: 'RT-3', place: 'runtime' },
      { clause: 'RT-2', place: 'runtime' },
    ],
  },
  // Failed on an unwaived RT-2, with a waived RT-3 beside it.
  {
    title: 'runtime 2025.04',
    clauses: ['RT-1', 'RT-2', 'RT-3'],
    status: 'failed',
    failures: [waivedFailure, makeFailure({ clause: 'RT-2', title: 'name is not YYYY.MM', received: '2025.4', allowed: 'YYYY.MM' }, { place: 'runtime' })],
  },
];

test('a clause whose failures are all waived is waived, with the reason and date; the run says which waivers were used, expired or stale', async () => {
  const entries = [
    { entry: 1, clause: 'RT-3' as const, reason: 'TICKET-123', until: '2999-12-31' },
    { entry: 2, clause: 'RT-2' as const, reason: 'old', until: '2000-01-01' },
    { entry: 3, clause: 'RT-1' as const, reason: 'fixed?', until: '2999-12-31' },
    { entry: 4, clause: 'CU-1' as const, reason: 'not tried in this run', until: '2999-12-31' },
  ];
  const { m, dir, printed } = await matrixOf(WAIVED, { waivers: { file: 'w.yaml', entries, today: '2026-05-01' } });
  const row = (id: string) => m.clauses.find((c) => c.id === id)!;
  expect(row('RT-3')).toMatchObject({ status: 'waived', waivers: [stamp] });
  expect(row('RT-3').failures).toHaveLength(2);
  expect(row('RT-3').tests.map((t) => t.status)).toEqual(['waived', 'waived']);
  expect(row('RT-2').status).toBe('failed');
  expect(row('RT-2').failures.every((f) => !f.waiver)).toBe(true);
  expect(row('RT-1').status).toBe('verified');
  expect(m.summary).toMatchObject({ verified: 1, waived: 1, failed: 1 });
  expect(m.waivers.map((n) => [n.kind, n.entry, n.failures])).toEqual([
    ['used', 1, 2],
    ['expired', 2, 1],
    ['stale', 3, 0],
  ]);
  expect(printed).toContain('waiver used: w.yaml entry 1 (clause "RT-3") covered 2 failures, until 2999-12-31: TICKET-123\n');
  expect(printed).toContain('waiver expired after 2000-01-01: w.yaml entry 2 (clause "RT-2") covers nothing now; its failure fails the run\n');
  expect(printed).toContain('waiver stale: w.yaml entry 3 (clause "RT-1") covered nothing in this run');
  expect(printed).toContain('clauses: 1 verified, 1 waived, 1 failed (RT-2)');
  expect(readFileSync(join(dir, 'contract-matrix.md'), 'utf8')).toContain(
    '| RT-3 | nodeJsVersion has the form v<major>.<minor>.<patch> | 🟪 waived | waived until 2999-12-31 (entry 1): TICKET-123;',
  );
});

test('JUnit: a waived failure is no failure of its test', async () => {
  const { dir } = await matrixOf(WAIVED);
  const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
  expect(xml).toContain('tests="2" failures="1" errors="0"');
  expect(xml).toContain('<failure type="ClauseFailure" message="RT-2: name is not YYYY.MM">');
});

test('a partial run marks the clauses it tried no test of not tried in this run, and says why it was partial', async () => {
  const { m, printed } = await matrixOf(FAKES, { partial: '--grep @RT-3' });
  const row = (id: string) => m.clauses.find((c) => c.id === id)!;
  expect([row('RT-1').status, row('RT-5').status, row('CU-1').status]).toEqual(['failed', 'not tried in this run', 'skipped']);
  expect(m.partial).toBe('--grep @RT-3');
  expect(m.summary.notCovered).toBe(0);
  expect(printed).toContain('partial run (--grep @RT-3)');
  expect(printed).toMatch(/not tried in this run; \d+ requests/);
  expect(printed).not.toContain('not covered');
});

test('the console gets one line per failed clause (count, places, first received value, where the details are) and per skip reason', async () => {
  const { printed } = await matrixOf(FAKES);
  const lines = printed.split('\n');
  expect(lines.filter((l) => l.startsWith('✗ '))).toEqual([
    expect.stringMatching(/^✗ RT-1 failed: 1 failure at 1 place; first: .*RT-5: something in the text/),
    expect.stringMatching(
      /^✗ RT-3 failed: 1 failure at 1 place; first: nodeJsVersion is not v<major>.<minor>.<patch> \(received .*24\.1\.0.*\); details: .*contract-matrix\.md$/,
    ),
  ]);
  expect(lines).toContain('skipped CU-1: CHECK_ID is not set');
});

test('the command line: --list, a partial selection (grep, files, a shard), a whole run, its own reporters', () => {
  const cli = (...args: string[]) => readSelection(['node', 'playwright', 'test', ...args]);
  expect(cli()).toEqual({ listing: false, partial: undefined, ownReporters: false, files: [], grepInvert: [], shuffle: false });
  expect(cli('--workers', '2', '--shard=1/1', '--reporter', 'dot')).toMatchObject({ listing: false, partial: undefined, ownReporters: true });
  expect(cli('--list').listing).toBe(true);
  expect(cli('-g', '@RT-3').partial).toBe('--grep @RT-3');
  expect(cli('--grep-invert=@burst', '--shard', '2/3').partial).toBe('--grep-invert @burst, --shard 2/3');
  expect(cli('tests/runtime.spec.ts', '--last-failed').partial).toBe('files tests/runtime.spec.ts, --last-failed');
});

test('tags come from the clauses: the family of the first, then each id', () => {
  expect(clauses('FO-2', 'CU-1', 'SPEC-9')).toEqual({
    annotation: ['FO-2', 'CU-1', 'SPEC-9'].map((description) => ({ type: 'clause', description })),
    tag: ['@check-update', '@FO-2', '@CU-1', '@SPEC-9'],
  });
  expect(clauseTags(['AUTH-4'])).toEqual(['@auth', '@AUTH-4']);
});
