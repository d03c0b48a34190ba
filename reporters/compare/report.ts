/** compare.md and compare.html: two targets side by side, clause by clause, what differs first; one document (verdict, family matrix, the differing clauses by group, their details cut to the limits, all clauses) rendered twice. */
import { uniqueBy } from '../unique';
import { count, markdown, page, statusClass, type Block, type Inline, type Row } from '../doc';
import { clip, failureTitle, requestOf, type Failure } from '../../support/checks/failure';
import { compare, type ClauseComparison, type Comparison, type Side, type SideName } from './model';

/** How much of each difference the reports show, most first (tests in full, the others named; requests per test; differences per request; failures per list): they take the first that keeps the page small. */
export const LIMITS = [
  { tests: 3, requests: 2, differences: 4, failures: 2 },
  { tests: 2, requests: 2, differences: 3, failures: 2 },
  { tests: 1, requests: 2, differences: 3, failures: 1 },
  { tests: 1, requests: 1, differences: 2, failures: 1 },
];
type Limits = (typeof LIMITS)[number];

/** The page's size the reports keep under, showing less of each difference when there are many. */
const PAGE_BUDGET = 56_000;

const COMPARE_STYLE = `
  .verdict { font-size: 18px; font-weight: 600; margin: 2px 0 6px; }
  .verdict.differs { color: var(--bad); } .verdict.agree { color: var(--ok); }
  table { width: auto; min-width: 50%; }
  th, td { padding: 4px 10px; }
  table.families td:not(:first-child), table.families th:not(:first-child) { text-align: right; }
  table.families tr.all td { font-weight: 600; border-top: 2px solid var(--line); }
  .n { color: var(--bad); font-weight: 600; } .n0 { color: #8c959f; }
  details.clause { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; padding: 4px 10px; }
  details.clause > summary { cursor: pointer; }
  ul.failures { margin: 2px 0; padding-left: 18px; font-size: 13px; }
  table.requests { margin: 2px 0 6px; min-width: 0; }
  table.requests td { font-size: 12px; }
  table.requests tr.test td { font-size: 13px; padding-top: 10px; }
  a { color: #0969da; text-decoration: none; }
`;

const badge = (status: string): Inline => ({ cls: statusClass(status), text: status });
const detail = (text: Inline): Inline => ({ cls: 'detail', text });
const anchor = (id: string) => `d-${id}`;

/** A test's own title, without its file and describe blocks. */
const lastTitlePart = (title: string) => title.split(' › ').at(-1) ?? title;

/** "2 more requests differ", "1 more test differs". */
const moreDiffer = (n: number, what: string) => `${count(n, `more ${what}`)} ${n === 1 ? 'differs' : 'differ'}`;

/** "… 2 more failures", for a list cut at `shown`; `all` adds where they all are. */
const moreFailures = (total: number, shown: number, all = false) =>
  total > shown ? `… ${count(total - shown, 'more failure')}${all ? " (each side's contract-matrix.md has them all)" : ''}` : '';

const skippedSides = (c: ClauseComparison) => (['A', 'B'] as const).filter((s) => (s === 'A' ? c.a : c.b) === 'skipped');
const reasonsOf = (c: ClauseComparison, side: SideName) => (c.reasons[side].length ? c.reasons[side] : ['no reason given']);

/** The skip reasons behind the clauses skipped on one side, each once, with the clauses it explains. */
function skipReasons(clauses: ClauseComparison[]): string[] {
  const skips = clauses.flatMap((c) => skippedSides(c).flatMap((side) => reasonsOf(c, side).map((reason) => ({ side, reason, id: c.id }))));
  const of = (s: (typeof skips)[number]) => skips.filter((x) => x.side === s.side && x.reason === s.reason).map((x) => x.id);
  return uniqueBy(skips, (s) => `${s.side}|${s.reason}`).map((s) => `${s.side} skipped ${of(s).join(', ')}: ${s.reason}`);
}

const outcome = (side: SideName, o: string) => `${side} ${o === 'absent' ? 'did not run it' : o}`;

/** One clause's details, cut to the limits; a failure's received and allowed said once per clause, its request where no test shows it. */
function clauseDetails(c: ClauseComparison, limits: Limits, shown: Map<string, string>): Block {
  const said = new Set<string>();
  const failure = (f: Failure, withRequest: boolean): Inline => {
    const text = `received ${clip(f.received)}; allowed ${clip(f.allowed)}`;
    const values = said.has(text) ? 'received and allowed as above' : (said.add(text), text);
    const request = withRequest ? requestOf(f) : '';
    return [{ b: f.side ?? '' }, ` ${clip(failureTitle(f) || 'failed')}`, request ? [' ', { code: request }] : '', ' ', detail(`(${values})`)];
  };
  const rows = c.tests.slice(0, limits.tests).flatMap((t): Row[] => {
    // The clause under which this test's requests are shown, when it is not this one.
    const shownIn = t.requests.length ? shown.get(t.title) : undefined;
    if (t.requests.length && !shownIn) shown.set(t.title, c.id);
    const hidden = t.requests.length - limits.requests;
    // What the shown requests leave out: those that differ beyond the limit, those answered alike.
    const left = shownIn ? '' : [hidden > 0 ? moreDiffer(hidden, 'request') : '', t.alike ? `${t.alike} answered alike` : ''].filter(Boolean).join('; ');
    const more = moreFailures(t.failures.length, limits.failures);
    const note = (x: Inline): Row => ({ cells: [detail(x)] });
    const requests = t.requests.slice(0, limits.requests).flatMap((r) => {
      const hiddenDifferences = r.differences.length - limits.differences;
      const request: Inline = [
        { code: r.request },
        r.times > 1 ? ` ×${r.times}` : '',
        r.requestB ? [' / B ', { code: r.requestB }] : '',
        hiddenDifferences > 0 ? detail(` (+${count(hiddenDifferences, 'more difference')})`) : '',
      ];
      return r.differences.slice(0, limits.differences).map((d, i) => ({ cells: [i ? '' : request, d.what, { code: d.a }, { code: d.b }] }));
    });
    return [
      { cls: 'test', cells: [[{ b: lastTitlePart(t.title) }, ' ', detail(`(${outcome('A', t.a)} · ${outcome('B', t.b)})`)]] },
      ...t.failures.slice(0, limits.failures).map((f) => ({ cells: [failure(f, false)] })),
      ...(more ? [note(more)] : []),
      ...(shownIn ? [note(['responses: as under ', { link: shownIn, href: `#${anchor(shownIn)}` }])] : requests),
      ...(left ? [note(left)] : []),
    ];
  });
  const rest = c.tests.slice(limits.tests);
  const named = rest.slice(0, 5).map((t) => clip(lastTitlePart(t.title), 60));
  const loose = c.failures.slice(0, limits.failures).map((f) => failure(f, true));
  const moreLoose = moreFailures(c.failures.length, limits.failures, true);
  return {
    details: [c.id, ': A ', badge(c.a), ', B ', badge(c.b), `: ${c.first}`],
    id: anchor(c.id),
    cls: 'clause',
    body: [
      { p: c.summary, cls: 'detail' },
      ...skippedSides(c).map((s) => ({ p: `${s} skipped: ${reasonsOf(c, s).join('; ')}` })),
      ...(rows.length ? [{ table: ['request', 'what', 'A', 'B'], rows, cls: 'requests' }] : []),
      // "2 more tests differ: runtime 2025.04 · runtime 2024.09".
      ...(rest.length ? [{ p: `${moreDiffer(rest.length, 'test')}: ${named.join(' · ')}${rest.length > 5 ? ' · …' : ''}`, cls: 'detail' }] : []),
      ...(loose.length ? [{ list: [...loose, ...(moreLoose ? [detail(moreLoose)] : [])], cls: 'failures' }] : []),
    ],
  };
}

const sideLine = (name: SideName, s: Side): Inline => [
  { b: name },
  `: ${s.label}${s.problem ? ` (${s.problem})` : ''}`,
  s.reports ? [' · ', { link: 'its reports', href: `${s.reports}/contract-matrix.md` }] : '',
];

function families(c: Comparison): Block[] {
  const n = (v: number): Inline => ({ cls: v ? 'n' : 'n0', text: String(v) });
  const row = (f: Comparison['total'], name: Inline, cls?: string): Row => ({
    cls,
    cells: [name, String(f.clauses), String(f.same), n(f.aOnly), n(f.bOnly), n(f.oneSkipped)],
  });
  const rows = [...c.families.map((f) => row(f, { cls: 'id', text: f.family })), row(c.total, { b: 'all' }, 'all')];
  if (!c.families.length) return [];
  return [{ table: ['family', 'clauses', 'same', 'A only verified', 'B only verified', 'skipped on one side'], rows, cls: 'families' }];
}

function groups(c: Comparison): Block[] {
  return c.groups.flatMap((g): Block[] => {
    const head = { h: `${g.title} (${g.clauses.length})` };
    if (!g.clauses.length) return [head, { p: 'None.', cls: 'detail' }];
    const id = (x: ClauseComparison): Inline => ({ cls: 'id', text: x.detailed ? { link: x.id, href: `#${anchor(x.id)}` } : x.id });
    const rows = g.clauses.map((x) => ({ cells: [id(x), badge(x.a), badge(x.b), x.first, detail(x.summary)] }));
    const table = { table: ['clause', 'A', 'B', 'first difference', 'rule'], rows, cls: 'lines' };
    if (g.category !== 'one-skipped') return [head, table];
    return [head, table, { p: 'Why:', cls: 'detail' }, { list: skipReasons(g.clauses), cls: 'failures' }];
  });
}

/** The report, showing as much of each difference as `limits` allow; each test's responses under the first clause that shows it. */
export function compareDoc(c: Comparison, limits: Limits = LIMITS[0]): Block[] {
  const differs = c.clauses.some((x) => x.differs) || !c.a.matrix || !c.b.matrix;
  const shown = new Map<string, string>();
  const detailed = c.groups.flatMap((g) => g.clauses.filter((x) => x.detailed).map((x) => clauseDetails(x, limits, shown)));
  const headers = (['A', 'B'] as const).filter((s) => c.headersOnly[s].length).map((s) => `${c.headersOnly[s].join(', ')} only on ${s}`);
  const all = c.clauses.map((x) => ({
    cls: x.differs ? 'differs' : undefined,
    cells: [x.differs ? { b: x.id } : x.id, detail(x.summary), badge(x.a), badge(x.b)],
  }));
  return [
    { p: { b: c.verdict }, cls: `verdict ${differs ? 'differs' : 'agree'}` },
    { list: [sideLine('A', c.a), sideLine('B', c.b)] },
    ...families(c),
    // Headers one side always sends and the other never, said once.
    ...(headers.length ? [{ p: `In every response: ${headers.join('; ')} (not repeated below).`, cls: 'detail' }] : []),
    ...(differs ? groups(c) : []),
    ...(detailed.length ? [{ h: 'Details' }, ...detailed] : []),
    { h: 'All clauses' },
    { details: `All ${c.clauses.length} clauses, the same ones too`, body: [{ table: ['clause', 'rule', 'A', 'B'], rows: all, cls: 'clauses' }] },
  ];
}

/** Both reports, showing as much of each difference as fits the page budget (the same in both). */
export function compareReports(a: Side, b: Side, budget = PAGE_BUDGET) {
  const comparison = compare(a, b);
  const html = (l: Limits) => page('Compare', compareDoc(comparison, l), COMPARE_STYLE);
  const limits = LIMITS.find((l) => Buffer.byteLength(html(l)) <= budget) ?? LIMITS.at(-1)!;
  return { comparison, limits, markdown: markdown('Compare', compareDoc(comparison, limits)), html: html(limits) };
}
