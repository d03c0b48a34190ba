/**
 * Whether a run caught a fault, read from the failure data (failures.json), never from text: every
 * catch of the fault needs a failure of its clause, stamped with its place and value class where the
 * catch names them, about a response of its status where it names one, made by a test of the fault's
 * own files. A test that failed before any check (an error) counts for the clauses it names, as in the
 * contract matrix, but only for catches that name nothing else.
 *
 * In a run shared with other faults, a failure counts for a fault only where that fault could have
 * caused it: at a place of its reach, about a response of the status its reach names (a fault changes
 * nothing else). A named fault's catch is a bare clause, which another fault's side effect in the same
 * file can produce (bent 400 bodies fail ERR-4 on the account probes too): its reach decides.
 */
import { failureTitle, type Failure } from '../../support/checks/failure';
import type { SuiteRun } from '../../scripts/suite-runner';
import { describeCatch, type Catch, type FaultCase } from './fault-cases';

export type How = 'batch' | 'alone' | 'again alone';

/** The attachment each fault test carries its outcomes in (JSON: FaultOutcome[]). */
export const OUTCOMES_ATTACHMENT = 'fault-outcomes';

/** One fault's result, as the kill ratio reporter reads it (the `fault-outcomes` attachment). */
export interface FaultOutcome {
  fault: string;
  family: string;
  source: FaultCase['source'];
  direction?: 'loose' | 'strict';
  catches: Catch[];
  caught: boolean;
  /** How the deciding run was made. */
  how: How;
  /** The catches no failure matched (empty when caught). */
  missing: Catch[];
  /** For a survivor: the failures of its clauses that the run did make (elsewhere), to show why none counted. */
  near: string[];
  /** In the allow-list of known survivors, with its reason. */
  known?: string;
  /** For a survivor of the service: whether the fault changes some answer of the generic battery (probe.ts). */
  breaksReference?: boolean;
}

export function matches(c: Catch, f: Failure, files: string[]): boolean {
  if (f.clause !== c.clause || !files.includes(f.file ?? '')) return false;
  if (f.error) return c.place === undefined && c.valueClass === undefined && c.status === undefined;
  if (c.place !== undefined && f.place !== c.place) return false;
  if (c.valueClass !== undefined && f.valueClass !== c.valueClass) return false;
  return c.status === undefined || f.exchange?.status === c.status;
}

const nearText = (f: Failure) =>
  `${f.clause} [${[f.place, f.valueClass, f.exchange?.status].filter((x) => x !== undefined).join(' · ') || 'no place'}] ${f.file}: ${failureTitle(f)}`.slice(
    0,
    240,
  );

/**
 * Whether `f` lies within the reach of a fault (fault-cases.ts): at one of its places (`*` every API
 * place, `agent` the agent's, a spec part anything the spec tests stamp) and, for a status aspect, about
 * a response of that status. A failure with no place (an error before any check) lies nowhere.
 */
export function withinReach(reach: string[], f: Failure): boolean {
  if (reach.includes('*') || reach.includes('*#*')) return true;
  if (f.error || !f.place) return false;
  return reach.some((r) => {
    const [place, aspect = '*'] = r.split('#');
    const placed =
      place === 'spec' ||
      place === f.place ||
      (place === 'agent' && f.place!.startsWith('agent')) ||
      (place === '*' && !f.place!.startsWith('agent') && f.place !== 'spec');
    return placed && (!/^\d{3}$/.test(aspect) || f.exchange?.status === Number(aspect));
  });
}

/** `company`: the run had other faults in it (see withinReach). */
export function judge(c: FaultCase, run: SuiteRun, how: How, company = how === 'batch'): FaultOutcome {
  const base = { fault: c.fault, family: c.family, source: c.source, direction: c.direction, catches: c.catches, how };
  const counts = (k: Catch, f: Failure) => matches(k, f, c.files) && (!company || withinReach(c.reach, f));
  const missing = c.catches.filter((k) => !run.failures.some((f) => counts(k, f)));
  const clauses = new Set(missing.map((k) => k.clause));
  const near = missing.length
    ? run.failures
        .filter((f) => clauses.has(f.clause))
        .slice(0, 5)
        .map(nearText)
    : [];
  if (missing.length && run.timedOut) near.unshift('the run was stopped at its time limit');
  return { ...base, caught: missing.length === 0 && c.catches.length > 0, missing, near };
}

/** One line per survivor: the fault string, what it had to be caught on, and what the run saw instead. */
export function survivorLines(o: FaultOutcome): string[] {
  return [
    `${o.fault}  (${o.family}, ${o.direction ?? 'named'}) expected: ${o.missing.map(describeCatch).join('; ')}`,
    ...(o.near.length ? o.near.map((n) => `    seen: ${n}`) : ['    seen: no failure of that clause']),
    ...(o.breaksReference === undefined
      ? []
      : [
          `    probe: ${o.breaksReference ? 'some answer of the generic battery differs: a miss of the suite' : 'no answer of the generic battery differs: the fault breaks nothing'}`,
        ]),
  ];
}

/**
 * Whether faults that shared the stored check left it broken for each other: a failure of the restore
 * (CU-9) or a test that failed before its checks, that no member's catch explains. Failures of other
 * cells are no sign (an accepted bad value reads back wrong, by the same fault); a broken restore is.
 */
export function stateBroken(run: SuiteRun, cases: FaultCase[]): boolean {
  const explained = (f: Failure) => cases.some((c) => c.catches.some((k) => matches(k, f, c.files)));
  return run.timedOut || run.failures.some((f) => (f.clause === 'CU-9' || f.error) && !explained(f));
}
