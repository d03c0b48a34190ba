/**
 * Waivers: the file is read whole and any entry that cannot be understood stops the run with one line
 * naming it; a waiver covers the failures of its clause (narrowed by place and value class) through its
 * `until` day; the verdict keeps a covered failure, stamped, without failing the test.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type TestInfo } from '@playwright/test';
import { ClauseFailure, makeFailure } from '../../support/checks/failure';
import { Verdict } from '../../support/checks/verdict';
import { covers, isActive, utcDay, waiverFor, type Waiver } from '../../support/checks/waivers';
import { readConfig } from '../../support/run/config';
import { SuiteError } from '../../support/run/suite-error';
import { parseWaivers, readWaiversFile } from '../../support/run/waivers-file';

const YAML = `
# TICKET-123: the v prefix ships next week
- clause: RT-3
  reason: TICKET-123
  until: 2026-03-31
- clause: CU-4
  place: check-update
  valueClass: upper-case
  reason: "TICKET-124: upper-case locations accepted"
  until: 2026-04-15
`;

test('a YAML list reads as waivers numbered from 1; JSON too; an empty file is no waiver', () => {
  expect(parseWaivers(YAML, 'w.yaml')).toEqual([
    { entry: 1, clause: 'RT-3', reason: 'TICKET-123', until: '2026-03-31' },
    { entry: 2, clause: 'CU-4', place: 'check-update', valueClass: 'upper-case', reason: 'TICKET-124: upper-case locations accepted', until: '2026-04-15' },
  ]);
  expect(parseWaivers('[{"clause": "AUTH-1", "reason": "r", "until": "2026-01-01"}]', 'w.json')).toEqual([
    { entry: 1, clause: 'AUTH-1', reason: 'r', until: '2026-01-01' },
  ]);
  expect(parseWaivers('', 'w.yaml')).toEqual([]);
});

const BAD: Array<[string, string]> = [
  ['- clause: RT-3\n  reason: [x\n', 'WAIVERS_FILE w.yaml: does not parse: '],
  ['clause: RT-3\n', 'WAIVERS_FILE w.yaml: must be a list of waivers'],
  ['- RT-3\n', 'WAIVERS_FILE w.yaml: entry 1: must be a mapping'],
  [
    '- clause: RT-3\n  reason: r\n  until: 2026-01-01\n- clause: XX-9\n  reason: r\n  until: 2026-01-01\n',
    'WAIVERS_FILE w.yaml: entry 2 (clause "XX-9"): unknown clause',
  ],
  ['- reason: r\n  until: 2026-01-01\n', 'WAIVERS_FILE w.yaml: entry 1: lacks a clause'],
  ['- clause: RT-3\n  until: 2026-01-01\n', 'WAIVERS_FILE w.yaml: entry 1 (clause "RT-3"): lacks a reason'],
  ['- clause: RT-3\n  reason: "  "\n  until: 2026-01-01\n', 'WAIVERS_FILE w.yaml: entry 1 (clause "RT-3"): lacks a reason'],
  ['- clause: RT-3\n  reason: r\n', 'WAIVERS_FILE w.yaml: entry 1 (clause "RT-3"): lacks a date (until: YYYY-MM-DD)'],
  ['- clause: RT-3\n  reason: r\n  until: 2026-02-30\n', 'WAIVERS_FILE w.yaml: entry 1 (clause "RT-3"): until must be a date YYYY-MM-DD (got "2026-02-30")'],
  ['- clause: RT-3\n  reason: r\n  until: next week\n', 'WAIVERS_FILE w.yaml: entry 1 (clause "RT-3"): until must be a date YYYY-MM-DD (got "next week")'],
  // A misspelt narrowing would widen the waiver to the whole clause.
  ['- clause: RT-3\n  valueclass: x\n  reason: r\n  until: 2026-01-01\n', 'WAIVERS_FILE w.yaml: entry 1 (clause "RT-3"): unknown field "valueclass"'],
  ['- clause: RT-3\n  place: ""\n  reason: r\n  until: 2026-01-01\n', 'WAIVERS_FILE w.yaml: entry 1 (clause "RT-3"): place must be a non-empty text'],
];

for (const [i, [text, line]] of BAD.entries()) {
  test(`one line for (${i + 1}): ${line}`, () => {
    let error: unknown;
    try {
      parseWaivers(text, 'w.yaml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SuiteError);
    expect((error as Error).message.startsWith(line), (error as Error).message).toBe(true);
    expect((error as Error).message).not.toContain('\n');
  });
}

test('the default file is read from the project root when it exists; a named file must exist; off reads none', () => {
  const root = mkdtempSync(join(tmpdir(), 'waivers-'));
  expect(readWaiversFile(undefined, root)).toEqual({ waivers: [] });
  writeFileSync(join(root, 'contract-waivers.yaml'), YAML);
  expect(readWaiversFile(undefined, root)).toMatchObject({ waiversFile: 'contract-waivers.yaml', waivers: [{ clause: 'RT-3' }, { clause: 'CU-4' }] });
  expect(readWaiversFile('off', root)).toEqual({ waivers: [] });
  expect(readWaiversFile(join(root, 'contract-waivers.yaml'), root).waivers).toHaveLength(2);
  expect(() => readWaiversFile(join(root, 'missing.yaml'), root)).toThrow(/^WAIVERS_FILE .*missing\.yaml: no such file$/);
});

test('the configuration reads WAIVERS_FILE once: a bad file is a configuration error, the day is the runner’s when it set one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waivers-'));
  const file = join(dir, 'w.yaml');
  writeFileSync(file, YAML);
  const c = readConfig({ CONTRACT_EMBEDDED_PORT: '4321', WAIVERS_FILE: file, CONTRACT_WAIVER_DAY: '2026-03-31' });
  expect(c.waivers.map((w) => w.clause)).toEqual(['RT-3', 'CU-4']);
  expect(c).toMatchObject({ waiversFile: file, today: '2026-03-31' });
  expect(readConfig({ CONTRACT_EMBEDDED_PORT: '4321', WAIVERS_FILE: 'off' }).today).toBe(utcDay());
  writeFileSync(file, '- clause: XX-9\n  reason: r\n  until: 2026-01-01\n');
  expect(() => readConfig({ CONTRACT_EMBEDDED_PORT: '4321', WAIVERS_FILE: file })).toThrow(SuiteError);
  expect(() => readConfig({ CONTRACT_EMBEDDED_PORT: '4321', WAIVERS_FILE: file })).toThrow(`WAIVERS_FILE ${file}: entry 1 (clause "XX-9"): unknown clause`);
});

const waiver = (w: Partial<Waiver>): Waiver => ({ entry: 1, clause: 'CU-4', reason: 'TICKET-124', until: '2026-04-15', ...w });

test('a waiver covers its clause, narrowed by place and value class, through the whole of its until day (UTC)', () => {
  const f = makeFailure(
    { clause: 'CU-4', title: 'an invalid request was not rejected', received: 200, allowed: 'a 4xx status' },
    { place: 'check-update', valueClass: 'upper-case' },
  );
  expect(covers(waiver({}), f)).toBe(true);
  expect(covers(waiver({ place: 'check-update', valueClass: 'upper-case' }), f)).toBe(true);
  expect(covers(waiver({ place: 'check-read' }), f)).toBe(false);
  expect(covers(waiver({ valueClass: 'lower-case' }), f)).toBe(false);
  expect(covers(waiver({ clause: 'CU-5' }), f)).toBe(false);
  expect(isActive(waiver({}), '2026-04-15')).toBe(true);
  expect(isActive(waiver({}), '2026-04-16')).toBe(false);
  expect(utcDay(new Date('2026-04-15T23:59:59Z'))).toBe('2026-04-15');
  // An expired waiver covers nothing; the next one that matches does.
  const both = [waiver({ until: '2026-01-01' }), waiver({ entry: 2, reason: 'later' })];
  expect(waiverFor(both, f, '2026-02-01')?.entry).toBe(2);
  expect(waiverFor(both, f, '2026-05-01')).toBeUndefined();
});

const info = () => ({ annotations: [] as Array<{ type: string; description?: string }> }) as unknown as TestInfo;

test('the verdict keeps a waived failure, stamped and shown on the test, and fails the test only on those no waiver covers', () => {
  const i = info();
  const v = new Verdict(i, false, [waiver({ place: 'check-update' })], '2026-04-01');
  v.at({ place: 'check-update', valueClass: 'upper-case' }).check({
    clause: 'CU-4',
    ok: false,
    title: 'an invalid request was not rejected',
    received: 200,
    allowed: 'a 4xx status',
  });
  expect(v.failures[0].waiver).toEqual({ entry: 1, reason: 'TICKET-124', until: '2026-04-15' });
  expect(() => v.settle()).not.toThrow();
  expect(i.annotations.find((a) => a.type === 'waived')?.description).toMatch(/^CU-4 \[check-update · upper-case\] .*waived until 2026-04-15: TICKET-124$/);

  v.at({ place: 'check-read' }).check({ clause: 'CU-4', ok: false, title: 'an invalid request was not rejected', received: 200, allowed: 'a 4xx status' });
  expect(v.failures).toHaveLength(2);
  expect(v.failures.filter((f) => !f.waiver).map((f) => f.place)).toEqual(['check-read']);
  let thrown: unknown;
  try {
    v.settle();
  } catch (e) {
    thrown = e;
  }
  expect((thrown as ClauseFailure).failures.map((f) => f.place)).toEqual(['check-read']);
});

test('past its date a waiver covers nothing: the failure fails the test', () => {
  const v = new Verdict(info(), false, [waiver({})], '2026-04-16');
  v.check({ clause: 'CU-4', ok: false, title: 'an invalid request was not rejected', received: 200, allowed: 'a 4xx status' });
  expect(v.failures[0].waiver).toBeUndefined();
  expect(() => v.settle()).toThrow(ClauseFailure);
});

test("the README's example waiver file reads as it says", () => {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
  const example = /```yaml\n(# contract-waivers\.yaml[\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBeDefined();
  expect(parseWaivers(example!, 'contract-waivers.yaml').map((w) => [w.clause, w.place, w.valueClass])).toEqual([
    ['RT-3', undefined, undefined],
    ['SPEC-9', undefined, undefined],
    ['CU-4', 'check-update', 'api:locations:upper-case'],
  ]);
});
