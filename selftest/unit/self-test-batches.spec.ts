// The self-test's planning and judging: which faults may share a run, when a run caught a fault, which
// tests a run needs, and the kill ratio. Pure functions, fed small made-up cases.
import { expect, test } from '@playwright/test';
import type { TestTried } from '../../reporters/clause-matrix';
import type { Failure } from '../../support/checks/failure';
import type { SuiteRun } from '../../scripts/suite-runner';
import { catchesOverlap, compatible, planBatches, reachesOverlap } from '../self/batch-plan';
import { judge, matches, stateBroken, withinReach, type FaultOutcome } from '../self/catching';
import { fromGenerated, fromNamed, reachOf, type FaultCase } from '../self/fault-cases';
import { killRatio } from '../self/kill-ratio-reporter';
import { testsFor } from '../self/test-selection';

const AUTH = 'tests/credentials.spec.ts';
const RT = 'tests/runtime.spec.ts';
const CU = 'tests/check-update.spec.ts';
const gen = (fault: string, clause: string, extra: { place?: string; valueClass?: string } = {}, files = [AUTH]) =>
  fromGenerated({ fault, clause: clause as never, direction: 'loose', files, ...extra }, 'fam');
const run = (failures: Partial<Failure>[], extra: Partial<SuiteRun> = {}): SuiteRun => ({
  exitCode: 0,
  output: '',
  failures: failures.map((f) => ({ title: 't', received: '', allowed: '', test: 't', project: 'contract', file: AUTH, ...f })) as Failure[],
  reportDir: '',
  ms: 0,
  timedOut: false,
  ...extra,
});

test('reach: a fault string says what it changes; a name no record knows runs alone', () => {
  expect(reachOf('errbody:runtime:404:wording')).toEqual(['runtime#404']);
  expect(reachOf('errbody:any:any:text-type')).toEqual(['*#*']);
  expect(reachOf('auth-skip:check-read:key')).toEqual(['check-read#auth']);
  expect(reachOf('accept:API:%7B%7D')).toEqual(['check-update#valid', 'check-read#valid']);
  expect(reachOf('rl-limit:+1')).toEqual(['alone']);
  expect(reachOf('rl-headers:remaining-off')).toEqual(['*#limit']);
  expect(reachOf('rl-exempt:any')).toEqual(['*#limit']);
  expect(reachOf('spec-unversioned')).toEqual(['alone']);
  expect(reachOf('spec-no-bearer')).toEqual(['spec#security']);
  expect(reachOf('rt-node-no-v')).toEqual(['runtime#known']);
  expect(reachOf('rt-prefix-match')).toEqual(['runtime#unknown']);
  expect(reachOf('agent-ready-late:300')).toEqual(['agent']);
  expect(reachOf('something-new')).toEqual(['alone']);
});

test('reaches overlap on a shared place and aspect; * is every API place, never the agent or the spec', () => {
  expect(reachesOverlap('runtime#404', 'runtime#401')).toBe(false);
  expect(reachesOverlap('runtime#404', 'runtime')).toBe(true);
  expect(reachesOverlap('runtime#404', 'check-read#404')).toBe(false);
  expect(reachesOverlap('*#404', 'check-read#404')).toBe(true);
  // Every route's 429 comes from the burst on the runtime route: all of that route's answers reach them.
  expect(reachesOverlap('check-read#429', 'runtime')).toBe(true);
  expect(reachesOverlap('runtime', 'check-update#429')).toBe(true);
  expect(reachesOverlap('check-read#429', 'runtime#known')).toBe(false);
  // The limiter past its limit: the 429s and the other limiter faults, nothing else.
  expect(reachesOverlap('*#limit', 'check-read#429')).toBe(true);
  expect(reachesOverlap('*#limit', '*#limit')).toBe(true);
  expect(reachesOverlap('*#limit', 'runtime')).toBe(true);
  expect(reachesOverlap('*#limit', 'check-update#valid')).toBe(false);
  expect(reachesOverlap('*#limit', '*#auth')).toBe(false);
  // Bending 404 bodies changes the answers to unknown ids; letting a bad credential through takes away
  // the 400, 401 or 403 whose bent body a fault beside it needs (a malformed account is the only 400).
  expect(reachesOverlap('runtime#404', 'runtime#unknown')).toBe(true);
  expect(reachesOverlap('check-update#400', 'check-update#valid')).toBe(true);
  expect(reachesOverlap('runtime#400', 'runtime#auth')).toBe(true);
  expect(reachesOverlap('runtime#403', 'runtime#auth')).toBe(true);
  expect(reachesOverlap('runtime#404', 'runtime#auth')).toBe(false);
  expect(reachesOverlap('*', 'agent')).toBe(false);
  expect(reachesOverlap('agent', 'agent')).toBe(true);
  // A spec fault changes what every test reads: it shares only with spec faults on other parts.
  expect(reachesOverlap('spec#security', 'spec#runtime-schema')).toBe(false);
  expect(reachesOverlap('spec#security', 'spec#security')).toBe(true);
  expect(reachesOverlap('spec#security', 'agent')).toBe(true);
});

test('catches overlap unless a field both name differs', () => {
  expect(catchesOverlap({ clause: 'ERR-4', place: 'runtime', status: 401 }, { clause: 'ERR-4', place: 'runtime', status: 404 })).toBe(false);
  expect(catchesOverlap({ clause: 'ERR-4', place: 'runtime', status: 401 }, { clause: 'ERR-4', place: 'runtime', valueClass: 'no-authorization' })).toBe(true);
  expect(catchesOverlap({ clause: 'ERR-4' }, { clause: 'ERR-4', place: 'runtime' })).toBe(true);
  expect(catchesOverlap({ clause: 'ERR-4' }, { clause: 'ERR-3' })).toBe(false);
});

test('the plan: every fault in exactly one run, alone ones by themselves, no two members compatible-breaking', () => {
  const cases: FaultCase[] = [
    gen('errbody:runtime:404:wording', 'ERR-1', { place: 'runtime' }, [RT]),
    gen('errbody:runtime:401:no-status', 'ERR-4', { place: 'runtime' }),
    gen('errbody:check-read:404:wording', 'ERR-1', { place: 'check-read' }),
    gen('errbody:runtime:404:no-status', 'ERR-4', { place: 'runtime' }, [RT]),
    gen('rl-limit:+1', 'RL-2'),
    fromNamed({ fault: 'rt-node-no-v', clauses: ['RT-3'], files: [RT] }),
    fromNamed({ fault: 'rt-eol-iso', clauses: ['RT-6'], files: [RT] }),
    fromNamed({ fault: 'spec-missing', clauses: ['SPEC-1'], files: ['tests/spec.spec.ts'] }),
  ];
  const plan = planBatches(cases);
  expect(plan.flatMap((b) => b.cases.map((c) => c.fault)).sort()).toEqual(cases.map((c) => c.fault).sort());
  for (const b of plan) {
    if (b.cases.some((c) => c.reach.includes('alone'))) expect(b.cases).toHaveLength(1);
    for (const x of b.cases) for (const y of b.cases) if (x !== y) expect(compatible(x, y), `${x.fault} with ${y.fault}`).toBe(true);
    expect(b.files).toEqual([...new Set(b.cases.flatMap((c) => c.files))].sort());
  }
  // Two 404 faults of one place change the same responses; two runtime faults by name likewise.
  const together = (a: string, b: string) => plan.some((p) => p.cases.some((c) => c.fault === a) && p.cases.some((c) => c.fault === b));
  expect(together('errbody:runtime:404:wording', 'errbody:runtime:404:no-status')).toBe(false);
  expect(together('rt-node-no-v', 'rt-eol-iso')).toBe(false);
  // Different places, or different aspects of one place, share: 8 faults, 2 alone, in 4 runs.
  expect(together('errbody:check-read:404:wording', 'errbody:runtime:401:no-status')).toBe(true);
  expect(together('rt-node-no-v', 'errbody:runtime:404:wording')).toBe(true);
  expect(plan).toHaveLength(4);
  expect(planBatches(cases)).toEqual(plan);
});

test('cells of the stored check share a run; a named update fault or a leak does not', () => {
  const cell = (fault: string, valueClass: string) =>
    fromGenerated({ fault, clause: 'CU-4', place: 'check-update', valueClass, direction: 'loose', files: [CU] }, 'check-update');
  const a = cell('accept:API:%7B%22locations%22%3A%5B%5D%7D', 'api:locations:empty');
  const b = cell('accept:API:%7B%22locations%22%3A%5B%22x%22%5D%7D', 'api:locations:unknown');
  const leak = fromGenerated({ fault: 'leak:name', clause: 'CU-7', place: 'check-update', direction: 'loose', files: [CU] }, 'check-update');
  const named = fromNamed({ fault: 'cu-unknown-location', clauses: ['CU-4'], files: [CU] });
  expect(compatible(a, b)).toBe(true);
  expect(compatible(a, leak)).toBe(false);
  expect(compatible(a, named)).toBe(false);
  expect(compatible(a, cell('accept:API:%7B%7D', 'api:locations:empty'))).toBe(false);
  const plan = planBatches([a, b, leak]);
  expect(plan.find((p) => p.cases.length === 2)?.shared).toBe(true);
  // A broken restore (CU-9) that no member explains makes the shared run untrustworthy; their own cells do not.
  expect(
    stateBroken(
      run([
        { clause: 'CU-4', place: 'check-update', valueClass: 'api:locations:empty', file: CU },
        { clause: 'CU-1', place: 'check-read', file: CU },
      ]),
      [a, b],
    ),
  ).toBe(false);
  expect(stateBroken(run([{ clause: 'CU-9', file: CU }]), [a, b])).toBe(true);
});

test('a catch needs its clause, place, class and status, from a test of its files; an error counts only for a bare clause', () => {
  const c = { clause: 'ERR-4' as const, place: 'runtime', status: 401 };
  const f = { clause: 'ERR-4', place: 'runtime', file: AUTH, exchange: { method: 'GET', url: 'u', status: 401, contentType: 'x' } } as Failure;
  expect(matches(c, f, [AUTH])).toBe(true);
  expect(matches(c, f, [RT])).toBe(false);
  expect(matches(c, { ...f, place: 'check-read' }, [AUTH])).toBe(false);
  expect(matches(c, { ...f, exchange: { ...f.exchange!, status: 404 } }, [AUTH])).toBe(false);
  expect(matches({ clause: 'ERR-4', valueClass: 'no-authorization' }, f, [AUTH])).toBe(false);
  expect(matches({ clause: 'ERR-4' }, { ...f, error: true }, [AUTH])).toBe(true);
  expect(matches(c, { ...f, error: true }, [AUTH])).toBe(false);
});

test('in company, a failure counts for a fault only where its reach could have caused it', () => {
  const ex = (status: number) => ({ method: 'GET', url: 'u', status, contentType: 'x' });
  const f = (place: string | undefined, status: number, extra: Partial<Failure> = {}) =>
    ({ clause: 'AUTH-6', place, file: AUTH, exchange: ex(status), ...extra }) as Failure;
  expect(withinReach(['*#403'], f('runtime', 403))).toBe(true);
  expect(withinReach(['*#403'], f('runtime', 400))).toBe(false);
  expect(withinReach(['check-update', 'check-read#valid'], f('check-update', 500))).toBe(true);
  expect(withinReach(['check-update', 'check-read#valid'], f('runtime', 500))).toBe(false);
  expect(withinReach(['*#auth'], f('check-read', 200))).toBe(true);
  expect(withinReach(['*#auth'], f('agent-health', 200))).toBe(false);
  expect(withinReach(['agent'], f('agent-readiness', 200))).toBe(true);
  expect(withinReach(['runtime#known'], f(undefined, 200))).toBe(false);
  expect(withinReach(['runtime#known'], f('runtime', 200, { error: true }))).toBe(false);
  // A named fault of the 403 bodies is not caught by the AUTH-6 failures that bent 400 bodies cause.
  const named = fromNamed({ fault: 'ind-err-403-status-401', clauses: ['AUTH-6'], files: [AUTH] } as never);
  expect(judge({ ...named, reach: ['*#403'] }, run([f('runtime', 400)]), 'batch').caught).toBe(false);
  expect(judge({ ...named, reach: ['*#403'] }, run([f('runtime', 400)]), 'again alone').caught).toBe(true);
});

test('judging: caught when every catch has its failure; a survivor shows the failures of its clause it did see', () => {
  const hand = fromNamed({ fault: 'err-404-string-status', clauses: ['ERR-1', 'ERR-4'], files: [RT] });
  expect(
    judge(
      hand,
      run([
        { clause: 'ERR-1', file: RT },
        { clause: 'ERR-4', file: RT },
      ]),
      'alone',
    ).caught,
  ).toBe(true);
  const half = judge(
    hand,
    run([
      { clause: 'ERR-1', file: RT },
      { clause: 'ERR-4', file: AUTH, title: 'elsewhere' },
    ]),
    'alone',
  );
  expect(half.caught).toBe(false);
  expect(half.missing).toEqual([{ clause: 'ERR-4' }]);
  expect(half.near.join()).toContain('elsewhere');
});

test("a run takes the tests of a fault's files that tried its catch (and those that tried nothing), or all of them when none did", () => {
  const baseline: TestTried[] = [
    { id: '[contract] › credentials.spec.ts › a', file: AUTH, tried: [{ clause: 'AUTH-1', place: 'runtime', valueClass: 'no-authorization' }] },
    { id: '[contract] › credentials.spec.ts › b', file: AUTH, tried: [{ clause: 'AUTH-1', place: 'check-read', valueClass: 'no-authorization' }] },
    { id: '[contract] › runtime.spec.ts › c', file: RT, tried: [{ clause: 'AUTH-1', place: 'runtime' }] },
  ];
  expect(testsFor(gen('auth-skip:runtime:key', 'AUTH-1', { place: 'runtime', valueClass: 'no-authorization' }), baseline)).toEqual([
    '[contract] › credentials.spec.ts › a',
  ]);
  expect(testsFor(gen('auth-skip:any:key', 'AUTH-1', { valueClass: 'no-authorization' }), baseline)).toEqual([
    '[contract] › credentials.spec.ts › a',
    '[contract] › credentials.spec.ts › b',
  ]);
  expect(testsFor(gen('x', 'AUTH-7'), baseline)).toEqual(['[contract] › credentials.spec.ts › a', '[contract] › credentials.spec.ts › b']);
  // A test the baseline skipped tried nothing there: under a fault's own settings it may try anything.
  const skipped = { id: '[contract] › credentials.spec.ts › skipped', file: AUTH, tried: [] };
  expect(testsFor(gen('auth-skip:runtime:key', 'AUTH-1', { place: 'runtime', valueClass: 'no-authorization' }), [...baseline, skipped])).toEqual([
    '[contract] › credentials.spec.ts › a',
    skipped.id,
  ]);
});

test('the kill ratio counts generated faults per family, lists survivors and the faults per clause', () => {
  const cases = [gen('a', 'AUTH-1'), gen('b', 'AUTH-1'), gen('c', 'AUTH-2'), fromNamed({ fault: 'rt-node-no-v', clauses: ['RT-3'], files: [RT] })];
  const outcome = (c: FaultCase, caught: boolean): FaultOutcome => ({
    fault: c.fault,
    family: c.family,
    source: c.source,
    catches: c.catches,
    caught,
    how: 'batch',
    missing: caught ? [] : c.catches,
    near: [],
  });
  const k = killRatio(cases, new Map([outcome(cases[0], true), outcome(cases[1], false), outcome(cases[3], true)].map((o) => [o.fault, o])));
  expect(k.total).toEqual({ family: 'total', faults: 3, ran: 2, caught: 1 });
  expect(k.survivors.map((s) => s.fault)).toEqual(['b']);
  expect(k.notRun).toEqual(['c']);
  expect(k.clauses.find((c) => c.clause === 'AUTH-1')).toEqual({ clause: 'AUTH-1', faults: 2, caught: 1 });
  expect(k.lists.find((l) => l.family === 'hand-written')).toEqual({ family: 'hand-written', faults: 1, ran: 1, caught: 1 });
});

test('one unknown runtime id is a part of its class: two ids share a run, an id and its whole class do not', () => {
  const [space] = reachOf('rt-id:2025.04%20:found');
  const [tab] = reachOf('rt-id:%092025.04:found');
  const [fullwidth] = reachOf('rt-id:%EF%BC%92%EF%BC%90%EF%BC%92%EF%BC%95%EF%BC%8E%EF%BC%90%EF%BC%94:found');
  expect(space).toBe('runtime#unknown:encoded/2025.04 ');
  expect(reachesOverlap(space, tab)).toBe(false);
  expect(reachesOverlap(space, reachOf('rt-unknown:encoded:found')[0])).toBe(true);
  expect(reachesOverlap(fullwidth, reachOf('rt-unknown:non-ascii:fail')[0])).toBe(true);
  expect(reachesOverlap(fullwidth, reachOf('rt-unknown:encoded:fail')[0])).toBe(false);
});
