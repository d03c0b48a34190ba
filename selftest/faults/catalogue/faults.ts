// The fault catalogue: every injectable bug of the reference service and agent, name -> one line (read
// from the records that apply them, selftest/faults/outside/), plus the parameterized kinds
// (fault-kinds.ts). One list for both processes, so one MOCK_FAULT value can be handed to both: each
// process rejects what is in no catalogue and ignores what belongs to the other.
import { ARGUMENT_HELP, KINDS, parseKind } from './fault-kinds';
import { ALIASES } from './fault-set';
import { OUTSIDE_FAULTS } from '../outside';
import { AGENT_FAULTS } from '../outside/agent';
import type { NamedFaultRecord } from '../types';

/** Every named fault's record, the service's then the agent's. */
export const NAMED_FAULTS: readonly NamedFaultRecord[] = [...OUTSIDE_FAULTS, ...AGENT_FAULTS].flatMap((f) => ('name' in f && f.name ? [f] : []));

export const FAULTS: Readonly<Record<string, string>> = Object.fromEntries(NAMED_FAULTS.map((f) => [f.name, f.what]));

export const isFault = (name: string): boolean => Object.hasOwn(FAULTS, name);

/** Checks the items of MOCK_FAULT; throws one line naming every bad item so main() can print it and exit 2. */
export function checkFaultList(items: Iterable<string>): void {
  const unknown: string[] = [];
  const malformed: string[] = [];
  for (const item of items) {
    if (isFault(item)) continue;
    if (item.includes(':') || Object.hasOwn(KINDS, item)) {
      try {
        parseKind(item);
      } catch (e) {
        malformed.push((e as Error).message);
      }
    } else unknown.push(item);
  }
  const problems = [...(unknown.length ? [`unknown fault name(s): ${unknown.join(', ')}`] : []), ...malformed];
  if (problems.length) throw new Error(`MOCK_FAULT: ${problems.join('; ')} (npx tsx selftest/faults/list.ts lists them)`);
}

/** The comma-separated items of MOCK_FAULT, blanks dropped. */
export const faultItems = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function listFaults(): string {
  const alias = (name: string) => {
    const row = ALIASES[name];
    return row ? ` (= ${Object.values(row).join(':')})` : '';
  };
  return [
    ...Object.entries(FAULTS).map(([name, what]) => `${name.padEnd(34)} ${what}${alias(name)}`),
    '',
    'Parameterized kinds (kind:arg:arg…; an argument holding "," or ":" is encodeURIComponent-encoded):',
    ...Object.values(KINDS).map((k) => `${k.grammar.padEnd(40)} ${k.what}`),
    ...ARGUMENT_HELP,
  ].join('\n');
}
