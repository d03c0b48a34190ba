/** What differs between two targets' responses to one test, request by request, ranked from status to headers; bodies of different statuses are not compared. */
import type { Observation } from '../../support/http/observation';
import { clip } from '../../support/checks/failure';

/** Rank of a difference: the lower, the more it matters to whoever decides if one side can stand in. */
const RANK = { status: 0, missing: 1, contentType: 2, errorBody: 3, body: 4, header: 5 } as const;

export interface Difference {
  rank: number;
  /** Order within a rank: the documented fields of an error body first, types before values. */
  sub: number;
  /** The body field (last key) or header the difference is about, for matching it to a clause. */
  field?: string;
  what: string;
  a: string;
  b: string;
  /** A few words: "status 404 vs 200", "error body: error \"Not Found\" vs \"Not found\"". */
  phrase: string;
}

/**
 * A request whose responses differ: `requestB`, B's request line when it is not A's (ids differ between
 * targets); `times`, how many requests of the test differed exactly so; `cause`, a check of the clause
 * failed on its response (on either side).
 */
type RequestDiff = { request: string; requestB?: string; differences: Difference[]; times: number; cause?: true };

/** Whether a check of the clause failed on this response of a side: what makes a differing request the cause, not one difference among many. */
export type CausePredicate = (side: 'A' | 'B', o: Observation) => boolean;

/**
 * Two answers the document treats as one: a HEAD has no operation of the spec, and the suite takes any
 * 4xx as its refusal (401, 404 and 405 alike: a target need not route HEAD), so two refusals of a HEAD
 * that differ in status, or in the headers of a body it has not got, are no difference.
 */
const alikeRefusals = (x: Observation, y: Observation) =>
  x.request.startsWith('HEAD ') && y.request.startsWith('HEAD ') && [x.status, y.status].every((s) => s >= 400 && s < 500);

/** Fields of the documented error body, compared before any other field of it. */
const ERROR_FIELDS = ['statusCode', 'error', 'message'];
/** Headers whose values change from request to request: only their presence is compared. */
const VOLATILE = /ratelimit|retry-after|last-modified|^date$/i;
/** Values that change from run to run (timestamps): only their type is compared. */
const TIMESTAMP = /^"\d{4}-\d\d-\d\dT\d\d:\d\d/;

const isJson = (ct: string | undefined) => !!ct && /[/+]json\b/i.test(ct);

/** "string = \"v1\"" → its type ("string") and its value ("\"v1\""; none for a type alone, "object"). */
const typeOf = (v: string) => v.split(' = ')[0];
const valueOf = (v: string | undefined) => (v === undefined ? undefined : / = ([^]*)$/.exec(v)?.[1]);
/** A value as the reports show it: its value, else its type. */
const shown = (v: string | undefined) => (v === undefined ? 'absent' : (valueOf(v) ?? v));

const lastKey = (path: string) => /([^.[\]]+)(?:\[\d+\])?$/.exec(path)?.[1] ?? path;
const parentOf = (path: string) => path.replace(/(\.[^.[\]]+|\[\d+\])$/, '');
const label = (path: string) => (path === '$' ? 'body' : path.replace(/^\$\.?/, ''));
const names = (list: string[]) => (list.length ? `${list.slice(0, 3).join(', ')}${list.length > 3 ? ` +${list.length - 3}` : ''}` : 'none');

function bodyDifferences(x: Observation, y: Observation): Difference[] {
  const error = x.status >= 400;
  const where = error ? 'error body' : 'body';
  const onOneSide = (p: string) => (x.body[p] === undefined) !== (y.body[p] === undefined);
  const out: Difference[] = [];
  // Keys of one object present on one side only: one difference for the object, not one per key.
  const keysOnly = new Map<string, Difference[]>();
  for (const p of new Set([...Object.keys(x.body), ...Object.keys(y.body)])) {
    const a = x.body[p];
    const b = y.body[p];
    const parent = parentOf(p);
    // Below a field that one side lacks altogether, its children say nothing more.
    if (a === b || (p !== '$' && onOneSide(parent))) continue;
    const field = lastKey(p);
    const nested = /^\$\.[^.[\]]+$/.test(p) || p === '$' ? 0 : 2;
    const documented = error && ERROR_FIELDS.includes(field) && !nested;
    // A documented error field ranks first; then a missing or retyped value before a changed one, the nested after.
    const difference = (weight: number, phrase: string): Difference => ({
      rank: error ? RANK.errorBody : RANK.body,
      sub: documented ? 0 : weight + nested,
      field,
      what: `${where} ${label(p)}`,
      a: shown(a),
      b: shown(b),
      phrase,
    });
    if (a === undefined || b === undefined) {
      const side = a === undefined ? 'B' : 'A';
      const only = difference(1, p === '$' ? `${where} only on ${side}` : `${where}: ${label(p)} only on ${side}`);
      if (p !== '$' && x.body[parent] === 'object' && y.body[parent] === 'object') keysOnly.set(parent, [...(keysOnly.get(parent) ?? []), only]);
      else out.push(only);
    } else if (typeOf(a) !== typeOf(b)) {
      out.push(difference(1, p === '$' ? `${where} ${typeOf(a)} vs ${typeOf(b)}` : `${where}: ${label(p)} ${shown(a)} vs ${shown(b)}`));
    } else if (!(TIMESTAMP.test(valueOf(a) ?? '') && TIMESTAMP.test(valueOf(b) ?? ''))) {
      out.push(difference(2, `${where}: ${label(p)} ${shown(a)} vs ${shown(b)}`));
    }
  }
  for (const [parent, only] of keysOnly) {
    const lead = `${where}: ${parent === '$' ? 'fields' : `${label(parent)} keys`} `;
    out.push(oneSided(only, { sub: parent === '$' ? 1 : 3, field: lastKey(parent), what: `${where} ${label(parent)} keys`, lead }));
  }
  return out;
}

function headerDifferences(x: Observation, y: Observation, ignore: ReadonlySet<string>): Difference[] {
  const out: Difference[] = [];
  const only: Difference[] = [];
  for (const h of [...new Set([...Object.keys(x.headers), ...Object.keys(y.headers)])].sort()) {
    const a = x.headers[h];
    const b = y.headers[h];
    const contentType = h === 'content-type';
    if (ignore.has(h) || a === b || (!contentType && VOLATILE.test(h) && a !== undefined && b !== undefined)) continue;
    if (!contentType && (a === undefined || b === undefined)) {
      const [sa, sb] = [a, b].map((v) => (v === undefined ? 'absent' : h));
      only.push({ rank: RANK.header, sub: 1, field: h, what: 'headers', a: sa, b: sb, phrase: `${h} only on ${a === undefined ? 'B' : 'A'}` });
      continue;
    }
    // application/json vs application/problem+json: both JSON, a detail; JSON vs text: a difference.
    const rank = contentType && isJson(a) !== isJson(b) ? RANK.contentType : RANK.header;
    const what = contentType ? h : `header ${h}`;
    out.push({ rank, sub: contentType ? 0 : 1, field: h, what, a: a ?? 'absent', b: b ?? 'absent', phrase: `${what} ${a ?? 'absent'} vs ${b ?? 'absent'}` });
  }
  return only.length ? [...out, oneSided(only, { sub: 1, field: only[0].field, what: 'headers', lead: '' })] : out;
}

/** Keys on one side only, of one group (an object's keys, a response's headers): one difference for the group, not one per key. */
function oneSided(only: Difference[], group: Pick<Difference, 'sub' | 'field' | 'what'> & { lead: string }): Difference {
  if (only.length === 1) return only[0];
  const [A, B] = [only.filter((d) => d.b === 'absent'), only.filter((d) => d.a === 'absent')].map((ds) => ds.map((d) => d.field!));
  const on = [A.length ? `${names(A)} only on A` : '', B.length ? `${names(B)} only on B` : ''].filter(Boolean).join('; ');
  const { lead, ...rest } = group;
  return { rank: only[0].rank, ...rest, a: names(A), b: names(B), phrase: `${lead}${on}` };
}

/** Pairs one test's requests on both sides by a longest common subsequence of their routes, so that one request more or less shifts no other. */
export function align(a: Observation[] = [], b: Observation[] = []): Array<[Observation | undefined, Observation | undefined]> {
  const ka = a.map((o) => o.route);
  const kb = b.map((o) => o.route);
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = ka[i] === kb[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: Array<[Observation | undefined, Observation | undefined]> = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && ka[i] === kb[j]) out.push([a[i++], b[j++]]);
    else if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) out.push([a[i++], undefined]);
    else out.push([undefined, b[j++]]);
  }
  return out;
}

/** Headers one side sends with every response and the other never: said once, not on every request. */
export function systematicHeaders(pairs: Array<[Observation | undefined, Observation | undefined]>): { A: string[]; B: string[] } {
  const both = pairs.filter((p): p is [Observation, Observation] => !!p[0] && !!p[1]);
  const all = both.length < 5 ? [] : [...new Set(both.flatMap(([x, y]) => [...Object.keys(x.headers), ...Object.keys(y.headers)]))].sort();
  // In at least half the responses of one side, in none of the other's.
  const onlyOn = (i: 0 | 1) => (h: string) =>
    h !== 'content-type' && both.every((p) => p[1 - i].headers[h] === undefined) && both.filter((p) => p[i].headers[h] !== undefined).length >= both.length / 2;
  return { A: all.filter(onlyOn(0)), B: all.filter(onlyOn(1)) };
}

const withError = (o: Observation) => {
  const e = valueOf(o.body['$.error']);
  return o.status >= 400 && e ? `${o.status} ${e}` : String(o.status);
};

/** Ranks differences: rank, then within a rank the fields a clause is about (`vocabulary`, the words of its summary), then the order within the rank (sorting is stable: then the order found). */
export const rankBy = (vocabulary: ReadonlySet<string>) => {
  const relevance = (d: Difference) => (d.field && vocabulary.has(d.field) ? 0 : 1);
  return (p: Difference, q: Difference) => p.rank - q.rank || relevance(p) - relevance(q) || p.sub - q.sub;
};

/** The responses of one test on both sides, paired; the requests that differ, most telling first by `order`. */
export function diffRequests(
  a: Observation[] = [],
  b: Observation[] = [],
  ignoreHeaders: ReadonlySet<string> = new Set(),
  order = rankBy(new Set()),
  isCause: CausePredicate = () => false,
): { requests: RequestDiff[]; alike: number } {
  // The same request differing the same way again is counted, not repeated.
  const seen = new Map<string, RequestDiff>();
  let alike = 0;
  align(a, b).forEach(([x, y]) => {
    const request = clip((x ?? y)!.request, 90);
    const requestB = x && y && x.request !== y.request ? clip(y.request, 90) : undefined;
    const differences: Difference[] = [];
    if (!x || !y) {
      differences.push({
        rank: RANK.missing,
        sub: 0,
        what: 'request',
        a: x ? withError(x) : 'not sent',
        b: y ? withError(y) : 'not sent',
        phrase: `only ${x ? 'A' : 'B'} sent ${request}`,
      });
    } else if (!alikeRefusals(x, y)) {
      if (x.status !== y.status)
        differences.push({ rank: RANK.status, sub: 0, what: 'status', a: withError(x), b: withError(y), phrase: `status ${x.status} vs ${y.status}` });
      differences.push(...headerDifferences(x, y, ignoreHeaders));
      if (x.status === y.status) differences.push(...bodyDifferences(x, y));
    }
    if (!differences.length) return void alike++;
    differences.sort(order);
    const key = `${request}|${requestB ?? ''}|${differences.map((d) => `${d.what}=${d.a}/${d.b}`).join('|')}`;
    const same = seen.get(key);
    if (same) return void same.times++;
    const cause = (!!x && isCause('A', x)) || (!!y && isCause('B', y));
    seen.set(key, { request, ...(requestB && requestB !== request ? { requestB } : {}), differences, times: 1, ...(cause ? { cause: true as const } : {}) });
  });
  // A request a check failed on comes first: the cause, before a difference that failed nothing.
  const requests = [...seen.values()].sort((p, q) => Number(!p.cause) - Number(!q.cause) || order(p.differences[0], q.differences[0]));
  return { requests, alike };
}
