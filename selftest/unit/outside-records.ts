// The checks every list of records applied from outside the reference passes (outside-faults.spec.ts for
// the service's, outside-agent-faults.spec.ts for the agent's): each named record is the only one of its
// name (the catalogue is read from them), a generated row of its name breaks its clauses, and each kind
// record is a kind whose generated rows break one of its clauses.
import { expect, test } from '@playwright/test';
import { KINDS, parseKind } from '../faults/catalogue/fault-kinds';
import { NAMED_FAULTS } from '../faults/catalogue/faults';
import { generatedFaults, LISTED_FAULTS } from '../faults';

type Named = { name: string; clauses: readonly string[] };
type Kind = { kind: string; clauses: readonly string[] };

const generated = Object.values(generatedFaults()).flat();
/** What the self-test expects of a MOCK_FAULT value: the clauses every list gives it. */
const expected = (fault: string) => [
  ...LISTED_FAULTS.filter((e) => e.fault === fault).map((e) => [...e.clauses].sort()),
  ...generated.filter((g) => g.fault === fault).map((g) => [g.clause, ...(g.also ?? [])].sort()),
];

export function recordTests(label: string, named: readonly Named[], kinds: readonly Kind[]): void {
  test(`${label}: each named record is the only one of its name, with the clauses every list expects of it`, () => {
    for (const f of named) {
      expect(NAMED_FAULTS.filter((g) => g.name === f.name).length, f.name).toBe(1);
      const lists = expected(f.name);
      // A record that breaks no clause is a correct variant the self-test runs as a setting (rl-per-ip): it has no expectation.
      if (f.clauses.length === 0) expect(lists, `${f.name}, a variant, has no expectation`).toEqual([]);
      else expect(lists.length, `${f.name} has an expectation`).toBeGreaterThan(0);
      for (const clauses of lists) expect(clauses, f.name).toEqual([...f.clauses].sort());
    }
  });

  test(`${label}: each kind record is a kind of the grammar, and every generated row of it breaks one of its clauses`, () => {
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
}
