// The faults applied from outside the reference service (selftest/faults/outside): each is one record,
// in one place. Its name is in the catalogue the service checks MOCK_FAULT against, its clauses are those
// the self-test expects it to break, and no branch of the service names it any more.
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KINDS, parseKind } from '../faults/catalogue/fault-kinds';
import { FAULTS } from '../faults/catalogue/faults';
import { generatedFaults, LISTED_FAULTS } from '../faults';
import { OUTSIDE_FAULTS } from '../faults/outside';

const SERVICE = resolve(__dirname, '../../reference/service');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

const named = OUTSIDE_FAULTS.flatMap((f) => ('name' in f ? [f] : []));
const kinds = OUTSIDE_FAULTS.flatMap((f) => ('kind' in f ? [f] : []));
const generated = Object.values(generatedFaults()).flat();
/** What the self-test expects of a MOCK_FAULT value: the clauses every list gives it. */
const expected = (fault: string) => [
  ...LISTED_FAULTS.filter((e) => e.fault === fault).map((e) => [...e.clauses].sort()),
  ...generated.filter((g) => g.fault === fault).map((g) => [g.clause, ...(g.also ?? [])].sort()),
];

test('outside faults: each named record is in the catalogue, once, with the clauses its expectation lists', () => {
  expect(new Set(named.map((f) => f.name)).size).toBe(named.length);
  for (const f of named) {
    expect(Object.keys(FAULTS), f.name).toContain(f.name);
    const lists = expected(f.name);
    // A record that breaks no clause is a correct variant the self-test runs as a setting (rl-per-ip): it has no expectation.
    if (f.clauses.length === 0) expect(lists, `${f.name}, a variant, has no expectation`).toEqual([]);
    else expect(lists.length, `${f.name} has an expectation`).toBeGreaterThan(0);
    for (const clauses of lists) expect(clauses, f.name).toEqual([...f.clauses].sort());
  }
});

test('outside faults: each kind record is a kind of the grammar, and every generated row of it breaks one of its clauses', () => {
  for (const k of kinds) {
    expect(Object.keys(KINDS)).toContain(k.kind);
    const rows = generated.filter((g) => g.fault.startsWith(`${k.kind}:`));
    expect(rows.length, k.kind).toBeGreaterThan(0);
    for (const r of rows) {
      expect(parseKind(r.fault).kind).toBe(k.kind);
      expect(k.clauses, r.fault).toContain(r.clause);
    }
  }
});

test('outside faults: no source of the service names one of them', () => {
  const text = sources(SERVICE).map((f) => readFileSync(f, 'utf8'));
  for (const name of [...named.map((f) => f.name), ...kinds.map((k) => k.kind)])
    expect(
      text.some((t) => t.includes(`'${name}'`)),
      name,
    ).toBe(false);
});
