/** The comparison of two runs, clause by clause, with the tests behind each difference and the first difference in a few words. */
import { familyOf, type ClauseId } from '../../support/document/clauses';
import { FAMILIES } from '../../support/document/clause-text';
import type { ClauseRow, Matrix } from '../../support/run/report-files';
import { clip, comparePhrase, requestLine, requestOf, type Failure } from '../../support/checks/failure';
import { align, diffRequests, rankBy, systematicHeaders } from './diff';
import { count } from '../doc';
import { uniqueBy } from '../unique';
import type { Observation } from '../../support/http/observation';
import type { Difference } from './diff';

export type SideName = 'A' | 'B';

export interface Side {
  label: string;
  matrix?: Matrix;
  observations: Record<string, Observation[]>;
  exitCode: number | null;
  /** Why the side produced no matrix (configuration error, unreachable target), from its output. */
  problem?: string;
  /** Where the side's own reports are, relative to compare.html (for links). */
  reports?: string;
}

/** What a differing clause is (which side verified what the other did not), in the order both reports show the groups. */
const GROUPS = { 'a-only': 'A verified, B failed', 'b-only': 'B verified, A failed', 'one-skipped': 'Skipped on one side' } as const;
type Category = 'same' | keyof typeof GROUPS;

const statusOf = (side: Side, row?: ClauseRow) => (side.matrix ? (row?.status ?? 'not covered') : 'no result');

/** The failures of one side's clause row (contract-matrix.json's records), each once, marked with their side. */
const failuresOf = (side: SideName, row?: ClauseRow): Failure[] =>
  uniqueBy(
    (row?.failures ?? []).map((f) => ({ ...f, side })),
    (f) => `${f.test}|${f.title}|${f.field}|${f.received}|${requestOf(f)}`,
  );

/** A skip reason in a few words: the part before its explanation. */
const reasonPhrase = (side: SideName, reason: string | undefined) => `${side} skipped${reason ? `: ${clip(reason.split(/: |; /)[0], 60)}` : ''}`;

/** A waived clause is judged failed: a waiver is the side's own setting, not its behaviour (the reports still show `waived`). */
const verdictOf = (status: string) => (status === 'waived' ? 'failed' : status);

/** A test's outcome for a clause; one that does not count for it on this side shows how it ended there. */
function outcome(side: Side, row: ClauseRow | undefined, title: string): ClauseRow['tests'][number]['status'] | 'absent' {
  const own = row?.tests.find((t) => t.title === title)?.status;
  if (own) return own;
  const elsewhere = (side.matrix?.clauses ?? []).flatMap((c) => c.tests.filter((t) => t.title === title).map((t) => t.status));
  return elsewhere.includes('failed') ? 'failed' : (elsewhere[0] ?? 'absent');
}

/** One clause of both sides; `ignore`: the headers said once for the whole report. */
function compareClause(id: string, a: Side, b: Side, ignore: ReadonlySet<string>) {
  const [ra, rb] = [a, b].map((s) => s.matrix?.clauses.find((c) => c.id === id));
  const [sa, sb] = [statusOf(a, ra), statusOf(b, rb)];
  const [va, vb] = [verdictOf(sa), verdictOf(sb)];
  const differs = !!a.matrix && !!b.matrix && va !== vb;
  // Verified against failed, either way; any other difference is a side that skipped the clause (or did not run it).
  const category: Category = differs
    ? (({ 'verified|failed': 'a-only', 'failed|verified': 'b-only' } as Record<string, Category>)[`${va}|${vb}`] ?? 'one-skipped')
    : 'same';
  const reasons = { A: ra?.reasons ?? [], B: rb?.reasons ?? [] };
  // Whether the reports give the clause a details section (a clause skipped on one side needs none unless the other side failed it).
  const detailed = differs && (category !== 'one-skipped' || va === 'failed' || vb === 'failed');
  const base = { id, family: familyOf(id as ClauseId), summary: ra?.summary ?? rb?.summary ?? '', a: sa, b: sb, differs, category, reasons, detailed };
  if (!differs) return { ...base, first: '', tests: [], failures: [] };

  const failures = [...failuresOf('A', ra), ...failuresOf('B', rb)];
  const titles = [...new Set([...(ra?.tests ?? []), ...(rb?.tests ?? [])].map((t) => t.title))];
  const changed = titles.filter((t) => verdictOf(outcome(a, ra, t)) !== verdictOf(outcome(b, rb, t)));
  // A test that tried the clause on one side only (the other stopped before it: a 200 where a 404 was due) says less about it.
  const triedOnBoth = changed.filter((t) => [ra, rb].every((row) => row?.tests.some((x) => x.title === t)));
  const skipped = category === 'one-skipped';
  // What the clause is about: its summary (the catalogue's) names the fields that matter most.
  const order = rankBy(new Set(base.summary.split(/[^A-Za-z0-9_-]+/)));
  // The responses a check of this clause failed on, per side and test: the cause among the differences.
  const failedOn = new Set(failures.filter((f) => f.exchange).map((f) => `${f.side}|${f.test}|${requestOf(f)}`));
  const observed = (o: Observation) => {
    const [method, ...path] = o.request.split(' ');
    return requestLine(method, path.join(' '), o.status);
  };
  const causeIn = (title: string) => (side: SideName, o: Observation) => failedOn.has(`${side}|${title}|${observed(o)}`);
  const tests = (triedOnBoth.length ? triedOnBoth : changed.length ? changed : titles).map((title) => ({
    title,
    a: outcome(a, ra, title),
    b: outcome(b, rb, title),
    // A side that did not run the test sent nothing to set beside the other's requests.
    ...(skipped ? { requests: [], alike: 0 } : diffRequests(a.observations[title], b.observations[title], ignore, order, causeIn(title))),
    failures: [] as Failure[],
  }));
  const loose: Failure[] = [];
  // Each record names its test; a failure of a test not shown here is listed on its own.
  for (const f of failures) {
    const test = tests.find((t) => t.title === f.test);
    if (test) test.failures.push(f);
    else loose.push(f);
  }

  // A test with no differing request ranks after those with one.
  const lighter = (p?: Difference, q?: Difference) => (!p || !q ? Number(!p) - Number(!q) : order(p, q));
  const best = (t: (typeof tests)[number]) => t.requests[0]?.differences[0];
  // A test that declares the clause comes before one that checked it in passing (an error body on the way).
  const ownTest = (t: (typeof tests)[number]) => ([ra, rb].some((row) => row?.tests.some((x) => x.title === t.title && !x.inPassing)) ? 0 : 1);
  // A test whose first differing request is one a check of the clause failed on shows the cause.
  const causeShown = (t: (typeof tests)[number]) => (t.requests[0]?.cause ? 0 : 1);
  const ranked = tests
    .map((t) => ({ t, d: best(t) }))
    .sort((p, q) => ownTest(p.t) - ownTest(q.t) || causeShown(p.t) - causeShown(q.t) || lighter(p.d, q.d) || q.t.failures.length - p.t.failures.length);

  let first: string;
  const failingSide: SideName = category === 'b-only' ? 'A' : 'B';
  // A check of one field that failed on one side says what differs in its own words: the field and the value received.
  const ofField = failures.find((x) => x.side === failingSide && x.field);
  const sideSkipped = (['A', 'B'] as SideName[]).find((s) => !['verified', 'failed'].includes(verdictOf(s === 'A' ? sa : sb)));
  if (skipped && sideSkipped) {
    const [status, side] = sideSkipped === 'A' ? [sa, a] : [sb, b];
    // Of several reasons, the one that explains the most skipped clauses of that side says it best.
    const explains = (reason: string) => (side.matrix?.clauses ?? []).filter((row) => row.reasons.includes(reason)).length;
    const reason = [...reasons[sideSkipped]].sort((x, y) => explains(y) - explains(x))[0];
    first = status === 'skipped' ? reasonPhrase(sideSkipped, reason) : `${sideSkipped}: ${status}`;
  } else if (ofField) {
    first = comparePhrase(ofField);
  } else if (ranked[0]?.d) {
    first = ranked[0].d.phrase;
  } else {
    const f = failures.find((x) => x.side === failingSide) ?? failures[0];
    first = f ? comparePhrase(f) : 'the verdicts differ; the responses were alike';
  }
  // The first difference in a few words; the tests whose outcome differs, most telling first; failures of tests not among them.
  return { ...base, first, tests: ranked.map((r) => r.t), failures: loose };
}

export function compare(a: Side, b: Side) {
  const ids = [...new Set([a, b].flatMap((s) => (s.matrix?.clauses ?? []).map((c) => c.id as string)))];
  const titles = [...new Set([...Object.keys(a.observations), ...Object.keys(b.observations)])];
  const headersOnly = a.matrix && b.matrix ? systematicHeaders(titles.flatMap((t) => align(a.observations[t], b.observations[t]))) : { A: [], B: [] };
  const ignore = new Set([...headersOnly.A, ...headersOnly.B]);
  const clauses = ids.map((id) => compareClause(id, a, b, ignore));

  const groups = Object.entries(GROUPS).map(([category, title]) => ({ category, title, clauses: clauses.filter((c) => c.category === category) }));
  // A row of the family matrix; its last row, all, is one of all clauses.
  const tally = (family: string, of = clauses.filter((c) => c.family === family)) => {
    const n = (cat: Category) => of.filter((c) => c.category === cat).length;
    return { family, clauses: of.length, same: n('same'), aOnly: n('a-only'), bOnly: n('b-only'), oneSkipped: n('one-skipped') };
  };
  const families = Object.keys(FAMILIES).flatMap((f) => (clauses.some((c) => c.family === f) ? [tally(f)] : []));

  const differing = clauses.filter((c) => c.differs);
  const missing = [a.matrix ? '' : `A (${a.problem ?? 'no results'})`, b.matrix ? '' : `B (${b.problem ?? 'no results'})`].filter(Boolean);
  const verdict = missing.length
    ? `No comparison: ${missing.join(' and ')} produced no clause results.`
    : differing.length
      ? `B differs from A on ${count(differing.length, 'clause')} in ${count(new Set(differing.map((c) => c.family)).size, 'family', 'families')}.`
      : `A and B agree on every clause (${clauses.length}).`;
  return { a, b, verdict, clauses, families, total: tally('all', clauses), headersOnly, groups };
}

/** The comparison of two runs: verdict, clauses, family counts, the differing clauses grouped. */
export type Comparison = ReturnType<typeof compare>;
export type ClauseComparison = Comparison['clauses'][number];
