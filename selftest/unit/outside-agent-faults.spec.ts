// The faults of the reference agent, applied from outside it (selftest/faults/outside/agent.ts): each is
// one record, its name in the catalogue with the clauses the self-test expects it to break, every agent
// fault of the catalogue has its record, and no source of the agent names one of them.
import { recordTests } from './outside-records';
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KINDS } from '../faults/catalogue/fault-kinds';
import { FAULTS } from '../faults/catalogue/faults';
import { AGENT_FAULTS } from '../faults/outside/agent';
import { OUTSIDE_FAULTS } from '../faults/outside';

const AGENT = resolve(__dirname, '../../reference/agent');
const named = AGENT_FAULTS.flatMap((f) => (f.kind === undefined ? [f] : []));
const kinds = AGENT_FAULTS.flatMap((f) => (f.kind !== undefined ? [f] : []));

recordTests('agent faults', named, kinds);

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
