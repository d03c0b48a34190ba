// The faults of the reference agent, applied from outside it (selftest/faults/outside/agent.ts): each is
// one record, its name in the catalogue with the clauses the self-test expects it to break, every agent
// fault of the catalogue has its record, and no source of the agent names one of them.
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KINDS, parseKind } from '../faults/catalogue/fault-kinds';
import { FAULTS } from '../faults/catalogue/faults';
import { generatedFaults, LISTED_FAULTS } from '../faults';
import { AGENT_FAULTS } from '../faults/outside/agent';
import { OUTSIDE_FAULTS } from '../faults/outside';

const AGENT = resolve(__dirname, '../../reference/agent');
const named = AGENT_FAULTS.flatMap((f) => (f.kind === undefined ? [f] : []));
const kinds = AGENT_FAULTS.flatMap((f) => (f.kind !== undefined ? [f] : []));
const generated = Object.values(generatedFaults()).flat();
const expected = (fault: string) => [
  ...LISTED_FAULTS.filter((e) => e.fault === fault).map((e) => [...e.clauses].sort()),
  ...generated.filter((g) => g.fault === fault).map((g) => [g.clause, ...(g.also ?? [])].sort()),
];

test('agent faults: each named record is in the catalogue, once, with the clauses its expectation lists', () => {
  expect(new Set(named.map((f) => f.name)).size).toBe(named.length);
  for (const f of named) {
    expect(Object.keys(FAULTS), f.name).toContain(f.name);
    const lists = expected(f.name);
    expect(lists.length, `${f.name} has an expectation`).toBeGreaterThan(0);
    for (const clauses of lists) expect(clauses, f.name).toEqual([...f.clauses].sort());
  }
});

test('agent faults: each kind record is a kind of the grammar, and every generated row of it breaks one of its clauses', () => {
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

test('agent faults: every agent fault and kind of the catalogue has its record here, and none has one for the service', () => {
  const agentNames = Object.keys(FAULTS).filter((n) => /^(ind\d*-)?agent-/.test(n));
  expect(named.map((f) => f.name).sort()).toEqual(agentNames.sort());
  expect(kinds.map((k) => k.kind).sort()).toEqual(
    Object.keys(KINDS)
      .filter((k) => k.startsWith('agent-'))
      .sort(),
  );
  const service = new Set(OUTSIDE_FAULTS.map((f) => ('name' in f ? f.name : f.kind)));
  for (const f of AGENT_FAULTS) expect(service.has(f.kind ?? f.name), f.kind ?? f.name).toBe(false);
});

test('agent faults: no source of the agent names one of them, nor reads MOCK_FAULT', () => {
  const text = readdirSync(AGENT)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(AGENT, f), 'utf8'));
  for (const name of [...named.map((f) => f.name), ...kinds.map((k) => k.kind)])
    expect(
      text.some((t) => t.includes(`'${name}'`)),
      name,
    ).toBe(false);
  expect(text.some((t) => t.includes('MOCK_FAULT'))).toBe(false);
});
