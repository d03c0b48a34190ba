/** The compare report as sections, cut to the limits once, which the markdown and the page each render in their own way. */
import { uniqueBy } from '../unique';
import { clip, requestOf } from './failures';
import type { ClauseComparison, Comparison, Failure, Limits, SideName } from './types';

/** How much of each difference the reports show, most first: they take the first that keeps the page small. */
export const LIMITS: readonly Limits[] = [
  { tests: 3, requests: 2, differences: 4, failures: 2 },
  { tests: 2, requests: 2, differences: 3, failures: 2 },
  { tests: 1, requests: 2, differences: 3, failures: 1 },
  { tests: 1, requests: 1, differences: 2, failures: 1 },
];

export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A test's own title, without its file and describe blocks. */
const lastTitlePart = (title: string) => title.split(' › ').at(-1) ?? title;

/** "2 more requests differ", "1 more test differs". */
const moreDiffer = (n: number, what: string) => `${count(n, `more ${what}`)} ${n === 1 ? 'differs' : 'differ'}`;

/** "… 2 more failures", for a list cut at `shown`; `all` adds where they all are. */
const moreFailures = (total: number, shown: number, all = false) =>
  total > shown ? `… ${count(total - shown, 'more failure')}${all ? " (each side's contract-matrix.md has them all)" : ''}` : '';

/** Headers one side always sends and the other never, said once. */
export function headersLine(c: Comparison): string {
  const parts = (['A', 'B'] as const).filter((s) => c.headersOnly[s].length).map((s) => `${c.headersOnly[s].join(', ')} only on ${s}`);
  return parts.length ? `In every response: ${parts.join('; ')} (not repeated below).` : '';
}

const skippedSides = (c: ClauseComparison) => (['A', 'B'] as const).filter((s) => (s === 'A' ? c.a : c.b) === 'skipped');
const reasonsOf = (c: ClauseComparison, side: SideName) => (c.reasons[side].length ? c.reasons[side] : ['no reason given']);

/** The skip reasons behind the clauses skipped on one side, each once, with the clauses it explains. */
export function skipReasons(clauses: ClauseComparison[]) {
  const skips = clauses.flatMap((c) => skippedSides(c).flatMap((side) => reasonsOf(c, side).map((reason) => ({ side, reason, id: c.id }))));
  const of = (s: (typeof skips)[number]) => skips.filter((x) => x.side === s.side && x.reason === s.reason).map((x) => x.id);
  return uniqueBy(skips, (s) => `${s.side}|${s.reason}`).map((s) => ({ side: s.side, reason: s.reason, clauses: of(s) }));
}

const outcome = (side: SideName, o: string) => `${side} ${o === 'absent' ? 'did not run it' : o}`;

/** One clause's details section, cut to the limits; a failure's received and allowed said once per clause, its request where no test shows it. */
function clauseSection(c: ClauseComparison, limits: Limits, shown: Map<string, string>) {
  const said = new Set<string>();
  const line = (f: Failure, withRequest: boolean) => {
    const text = `received ${f.received}; allowed ${f.allowed}`;
    const values = said.has(text) ? 'received and allowed as above' : (said.add(text), text);
    return { side: f.side, title: f.title, request: withRequest ? requestOf(f) : '', values };
  };
  const tests = c.tests.slice(0, limits.tests).map((t) => {
    const hidden = t.requests.length - limits.requests;
    // The clause under which this test's requests are shown, when it is not this one.
    const shownIn = t.requests.length ? shown.get(t.title) : undefined;
    if (t.requests.length && !shownIn) shown.set(t.title, c.id);
    return {
      title: lastTitlePart(t.title),
      outcomes: `${outcome('A', t.a)} · ${outcome('B', t.b)}`,
      failures: t.failures.slice(0, limits.failures).map((f) => line(f, false)),
      moreFailures: moreFailures(t.failures.length, limits.failures),
      shownIn,
      requests: shownIn ? [] : t.requests.slice(0, limits.requests).map((r) => ({ ...r, shown: r.differences.slice(0, limits.differences) })),
      // What the shown requests leave out: those that differ beyond the limit, those answered alike.
      note: shownIn ? '' : [hidden > 0 ? moreDiffer(hidden, 'request') : '', t.alike ? `${t.alike} answered alike` : ''].filter(Boolean).join('; '),
    };
  });
  const rest = c.tests.slice(limits.tests);
  const named = rest.slice(0, 5).map((t) => clip(lastTitlePart(t.title), 60));
  return {
    clause: c,
    skips: skippedSides(c).map((s) => `${s} skipped: ${reasonsOf(c, s).join('; ')}`),
    tests,
    // "2 more tests differ: runtime 2025.04 · runtime 2024.09".
    moreTests: rest.length ? `${moreDiffer(rest.length, 'test')}: ${named.join(' · ')}${rest.length > 5 ? ' · …' : ''}` : '',
    loose: c.failures.slice(0, limits.failures).map((f) => line(f, true)),
    moreLoose: moreFailures(c.failures.length, limits.failures, true),
  };
}

/** The clauses with a details section, in the order of the groups; each test's responses shown under the first that shows it. */
export function detailSections(c: Comparison, limits: Limits = LIMITS[0]) {
  const shown = new Map<string, string>();
  return c.groups
    .flatMap((g) => g.clauses)
    .filter((x) => x.detailed)
    .map((x) => clauseSection(x, limits, shown));
}

export type ClauseSection = ReturnType<typeof clauseSection>;
export type TestSection = ClauseSection['tests'][number];
export type FailureLine = ClauseSection['loose'][number];
