/**
 * Which faults share a suite run. One run costs Playwright's start, the service's start and the spec
 * (a few seconds of CPU), so several faults go into one MOCK_FAULT list, on two conditions:
 * - their reaches do not overlap: no two of them change the same responses (a fault that changes what
 *   every test relies on, `alone`, runs by itself). One exception: faults of one cell each of the
 *   stored check (a generated update fault names its place and value class: one body) share the check;
 *   such a batch is `shared`, and is believed only if the check was restored (see stateBroken);
 * - their catches cannot be confused: no failure could count for two of them (two catches of one clause
 *   must differ in a place, value class or status that both name).
 * Then a failure that counts for a fault can only come from that fault. A fault a batch did not catch is
 * run again alone before it counts as a survivor (see faults.spec.ts), so batching never makes one up.
 */
import { isDeepStrictEqual } from 'node:util';
import { seedChecks } from '../../reference/service/checks/store';
import { BURST_PLACE } from '../../support/rate-limit/places';
import type { Catch, FaultCase } from './fault-cases';

export interface Batch {
  /** Stable across runs: the test title says it. */
  id: string;
  cases: FaultCase[];
  /** The union of the members' files. */
  files: string[];
  env?: Record<string, string>;
  /** One fault that runs by itself (`alone`). */
  alone: boolean;
  /** Members share the stored check (cell faults): believed only if the run restored it. */
  shared: boolean;
}

/** More per run would make one run long, and the runs are spread over the self-test's workers. */
export const MAX_PER_BATCH = 48;

interface Token {
  place: string;
  aspect: string;
}

const token = (t: string): Token => {
  const [place, aspect = '*'] = t.split('#');
  return { place, aspect };
};

/**
 * The error statuses each kind of request is answered with: bending their bodies changes those answers
 * too, and a fault that lets a bad credential through takes those answers away. The limiter past the
 * limit answers 429.
 */
const STATUSES_OF: Record<string, string[]> = { valid: ['400', '404', '415'], unknown: ['404', '500'], auth: ['400', '401', '403'], limit: ['429'] };

/**
 * An aspect may name a part (`known:stage`: one field of the runtime bodies), and a part a part of its
 * own after `/` (`unknown:encoded/2024.02 `: one id of a class); parts differ only when both are named
 * and neither holds the other.
 */
const within = (p: string, q: string) => p === q || p.startsWith(`${q}/`);
const sameAspect = (a: string, b: string) => {
  const [x, xPart] = a.split(/:(.*)/s);
  const [y, yPart] = b.split(/:(.*)/s);
  return x === y && (xPart === undefined || yPart === undefined || within(xPart, yPart) || within(yPart, xPart));
};
const base = (a: string) => a.split(':')[0];

const aspectsOverlap = (a: string, b: string) =>
  sameAspect(a, b) || a === '*' || b === '*' || !!STATUSES_OF[base(a)]?.includes(b) || !!STATUSES_OF[base(b)]?.includes(a);

/** Places that `*` (every API place) does not cover: the agent, and the spec (its parts follow `#`). */
const OWN_PLACES = ['agent', 'spec'];

/**
 * The 429s of every route (and what the limiter does past the limit) come from the burst spending the
 * limit on its own route: a fault that changes all of that route's answers (refuses them, say) takes
 * them away.
 */
const takesThe429s = (x: Token, y: Token) => (x.aspect === '429' || x.aspect === 'limit') && y.place === BURST_PLACE && y.aspect === '*';

/**
 * `*` is every API place; an aspect `*` (or none) is all of the place. Bending the error bodies of a
 * status overlaps the requests answered with it. A spec fault changes the document every test reads:
 * it overlaps everything but another spec fault on another part of the document.
 */
export function reachesOverlap(a: string, b: string): boolean {
  const [x, y] = [token(a), token(b)];
  if ((x.place === 'spec') !== (y.place === 'spec')) return true;
  if (takesThe429s(x, y) || takesThe429s(y, x)) return true;
  const apiWide = (p: string) => p === '*' && !OWN_PLACES.includes(y.place) && !OWN_PLACES.includes(x.place);
  const places = x.place === y.place || apiWide(x.place) || apiWide(y.place);
  return places && aspectsOverlap(x.aspect, y.aspect);
}

/** Whether one failure could count for both: same clause, and no field that both name differs. */
export function catchesOverlap(a: Catch, b: Catch): boolean {
  if (a.clause !== b.clause) return false;
  const differ = <K extends keyof Catch>(k: K) => a[k] !== undefined && b[k] !== undefined && a[k] !== b[k];
  return !(differ('place') || differ('valueClass') || differ('status'));
}

const sameEnv = (a?: Record<string, string>, b?: Record<string, string>) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/** The stored check: what the update faults change (its update, and its read). */
export const STATE_REACH = ['check-update#valid', 'check-read#valid'];

/** A generated fault of one cell of the update: one body, caught on its place and value class. */
export const isCellFault = (c: FaultCase) =>
  c.source === 'generated' &&
  c.reach.every((r) => STATE_REACH.includes(r)) &&
  c.catches.every((k) => k.place !== undefined && k.valueClass !== undefined) &&
  !refusesTheRestore(c);

/**
 * A combination cell is sent on a state a cell before it stored (its given): a fault that refuses
 * updates of that check may refuse the given, and take the combination away from the other fault.
 */
const refusedCheck = (c: FaultCase) => (c.fault.startsWith('refuse:') ? c.fault.split(':')[1].toLowerCase() : undefined);
const mayTakeTheGiven = (a: FaultCase, b: FaultCase) => {
  const check = refusedCheck(a);
  return !!check && b.catches.some((k) => k.valueClass?.startsWith(`${check}:combo:`));
};

/** A generated accept or refuse fault's check type and body pattern (`refuse:API:<pattern>`). */
function patternOf(c: FaultCase): { kind: string; type: string; pattern: Record<string, unknown> } | undefined {
  const [kind, type, pattern] = c.fault.split(':');
  return (kind === 'accept' || kind === 'refuse') && pattern ? { kind, type, pattern: JSON.parse(decodeURIComponent(pattern)) } : undefined;
}
const holds = (body: Record<string, unknown>, pattern: Record<string, unknown>) => Object.entries(pattern).every(([k, v]) => isDeepStrictEqual(body[k], v));

/** A fault that refuses a pattern refuses every body that holds it, another fault's accepted one too: that fault's change never shows. */
const masks = (a: FaultCase, b: FaultCase) => {
  const [x, y] = [patternOf(a), patternOf(b)];
  return x?.kind === 'refuse' && !!y && x.type === y.type && holds(y.pattern, x.pattern);
};

const SEEDED = seedChecks();
/** A refused pattern the seeded check of its type holds: the restore, which sends the seeded values, is refused too (CU-9). */
const refusesTheRestore = (c: FaultCase) => {
  const p = patternOf(c);
  return p?.kind === 'refuse' && SEEDED.some((check) => check.checkType === p.type && holds(check as unknown as Record<string, unknown>, p.pattern));
};

const sharesOnlyState = (a: FaultCase, b: FaultCase) =>
  isCellFault(a) && isCellFault(b) && !mayTakeTheGiven(a, b) && !mayTakeTheGiven(b, a) && !masks(a, b) && !masks(b, a);

export function compatible(a: FaultCase, b: FaultCase): boolean {
  if (a.reach.includes('alone') || b.reach.includes('alone')) return false;
  if (!sameEnv(a.env, b.env)) return false;
  if (a.reach.some((x) => b.reach.some((y) => reachesOverlap(x, y))) && !sharesOnlyState(a, b)) return false;
  return !a.catches.some((x) => b.catches.some((y) => catchesOverlap(x, y)));
}

const isAlone = (c: FaultCase) => c.reach.includes('alone');

/**
 * First fit, the fault that can share with the fewest others first (as in greedy graph colouring: the
 * hard ones open the batches, the easy ones fill the gaps). Deterministic: the same lists give the
 * same batches.
 */
export function planBatches(cases: FaultCase[], maxPerBatch = MAX_PER_BATCH): Batch[] {
  const partners = new Map(cases.map((c) => [c, cases.filter((o) => o !== c && compatible(c, o)).length]));
  const order = [...cases].sort((a, b) => partners.get(a)! - partners.get(b)! || a.fault.localeCompare(b.fault));
  const groups: FaultCase[][] = [];
  for (const c of order) {
    const home = isAlone(c) ? undefined : groups.find((g) => g.length < maxPerBatch && !isAlone(g[0]) && g.every((m) => compatible(m, c)));
    if (home) home.push(c);
    else groups.push([c]);
  }
  const width2 = String(groups.length).length;
  return groups.map((g, i) => ({
    id: `${String(i + 1).padStart(width2, '0')}`,
    cases: g,
    files: [...new Set(g.flatMap((c) => c.files))].sort(),
    env: g[0].env,
    alone: isAlone(g[0]),
    shared: g.filter(isCellFault).length > 1,
  }));
}
