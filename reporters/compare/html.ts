/** compare.html, in the order of compare.md; no scripts: <details> does the collapsing. */
import { esc, list, page, statusClass, table } from '../html-page';
import { onceEach, requestOf } from './failures';
import { count, familyTotals, headersLine, lastTitlePart, moreFailures, moreTests, requestsNote, skipLine } from './text';
import { outcomes, skipReasons } from './model';
import type { ClauseComparison, Comparison, Failure, Limits, Side, TestComparison } from './types';

const STYLE = `
  .verdict { font-size: 18px; font-weight: 600; margin: 2px 0 6px; color: #1f2328; }
  .verdict.differs { color: var(--bad); } .verdict.agree { color: var(--ok); }
  header { padding: 14px 32px; }
  table { width: auto; min-width: 50%; }
  th, td { padding: 4px 10px; }
  table.families td:not(:first-child), table.families th:not(:first-child) { text-align: right; }
  table.families tr.all td { font-weight: 600; border-top: 2px solid var(--line); }
  td.n { color: var(--bad); font-weight: 600; } td.n0 { color: #8c959f; }
  h2 .count { color: #57606a; font-weight: 400; }
  details.clause { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; padding: 4px 10px; }
  details.clause > summary { cursor: pointer; }
  details.clause[open] > summary { margin-bottom: 6px; }
  ul.failures { margin: 2px 0; padding-left: 18px; font-size: 13px; }
  table.requests { margin: 2px 0 6px; min-width: 0; }
  table.requests td { font-size: 12px; }
  table.requests tr.test th { position: static; background: #fff; text-transform: none; letter-spacing: 0; font-size: 13px; color: #1f2328; padding-top: 10px; }
  a { color: #0969da; text-decoration: none; }
`;

const badge = (status: string) => `<span class="${statusClass(status)}">${esc(status)}</span>`;
/** A failure: side, title (and the request, when no test shows it), then what was received and allowed. */
const failureText = (f: Failure, withRequest: boolean, said: (f: Failure) => string) => {
  const values = said(f);
  return `<b>${f.side}</b> ${esc(f.title)}${withRequest && requestOf(f) ? ` <code>${esc(requestOf(f))}</code>` : ''}${values ? ` <span class="detail">${esc(values)}</span>` : ''}`;
};
const anchor = (id: string) => `d-${id}`;

function sideLine(name: string, s: Side): string {
  const reports = s.reports ? ` · <a href="${esc(s.reports)}/contract-matrix.md">its reports</a>` : '';
  return `<div><b>${name}</b> ${esc(s.label)}${s.problem ? ` <span class="failed">(${esc(s.problem)})</span>` : ''}${reports}</div>`;
}

function families(c: Comparison): string {
  if (!c.families.length) return '';
  const n = (v: number) => `<td class="${v ? 'n' : 'n0'}">${v}</td>`;
  const rows = c.families.map(
    (f) => `<tr><td class="id">${esc(f.family)}</td><td>${f.clauses}</td><td>${f.same}</td>${n(f.aOnly)}${n(f.bOnly)}${n(f.oneSkipped)}</tr>`,
  );
  const all = familyTotals(c);
  rows.push(`<tr class="all"><td>all</td><td>${all.clauses}</td><td>${all.same}</td>${n(all.aOnly)}${n(all.bOnly)}${n(all.oneSkipped)}</tr>`);
  return table(['family', 'clauses', 'same', 'A only verified', 'B only verified', 'skipped on one side'], rows, ' class="families"');
}

/** The rows of one test: its name and outcomes, its failures, then its requests that differ. */
function testRows(t: TestComparison, limits: Limits, said: (f: Failure) => string): string {
  const rows = [`<tr class="test"><th colspan="4">${esc(lastTitlePart(t.title))} <span class="detail">${esc(outcomes(t))}</span></th></tr>`];
  for (const f of t.failures.slice(0, limits.failures)) rows.push(`<tr><td colspan="4">${failureText(f, false, said)}</td></tr>`);
  const more = moreFailures(t.failures.length, limits.failures);
  if (more) rows.push(`<tr><td colspan="4" class="detail">${esc(more)}</td></tr>`);
  if (t.shownIn)
    return [...rows, `<tr><td colspan="4" class="detail">Responses: as under <a href="#${anchor(t.shownIn)}">${esc(t.shownIn)}</a></td></tr>`].join('');
  for (const r of t.requests.slice(0, limits.requests)) {
    const shown = r.differences.slice(0, limits.differences);
    const request = `<code>${esc(r.request)}</code>${r.times > 1 ? ` ×${r.times}` : ''}${r.requestB ? `<br><span class="detail">B: <code>${esc(r.requestB)}</code></span>` : ''}${r.differences.length > shown.length ? `<br><span class="detail">+${count(r.differences.length - shown.length, 'more difference')}</span>` : ''}`;
    shown.forEach((d, i) =>
      rows.push(
        `<tr>${i === 0 ? `<td${shown.length > 1 ? ` rowspan="${shown.length}"` : ''}>${request}</td>` : ''}<td>${esc(d.what)}</td><td><code>${esc(d.a)}</code></td><td><code>${esc(d.b)}</code></td></tr>`,
      ),
    );
  }
  const note = requestsNote(t, limits);
  if (note) rows.push(`<tr><td colspan="4" class="detail">${note}</td></tr>`);
  return rows.join('');
}

function details(c: ClauseComparison, limits: Limits): string {
  const skips = (['A', 'B'] as const)
    .filter((s) => (s === 'A' ? c.a : c.b) === 'skipped')
    .map((s) => `<p>${esc(skipLine(c, s))}</p>`)
    .join('');
  const said = onceEach();
  const tests = c.tests
    .slice(0, limits.tests)
    .map((t) => testRows(t, limits, said))
    .join('');
  const requests = tests ? table(['request', 'what', 'A', 'B'], [tests], ' class="requests"') : '';
  const rest = c.tests.slice(limits.tests);
  const restLine = rest.length ? `<p class="detail">${esc(moreTests(rest))}</p>` : '';
  const more = moreFailures(c.failures.length, limits.failures, true);
  const loose = c.failures.length
    ? list(
        [...c.failures.slice(0, limits.failures).map((f) => failureText(f, true, said)), ...(more ? [`<span class="detail">${esc(more)}</span>`] : [])],
        ' class="failures"',
      )
    : '';
  const summary = `<summary><b>${esc(c.id)}</b> A ${badge(c.a)}, B ${badge(c.b)}: ${esc(c.first)}</summary>`;
  return `<details class="clause" id="${anchor(c.id)}">${summary}<p class="detail">${esc(c.summary)}</p>${skips}${requests}${restLine}${loose}</details>`;
}

export function renderCompareHtml(c: Comparison): string {
  const differs = c.clauses.some((x) => x.differs) || !c.a.matrix || !c.b.matrix;
  const header = `<p class="verdict ${differs ? 'differs' : 'agree'}">${esc(c.verdict)}</p>${sideLine('A', c.a)}${sideLine('B', c.b)}`;
  const groups = c.groups.map((g) => {
    const head = `<h2>${esc(g.title)} <span class="count">(${g.clauses.length})</span></h2>`;
    if (!g.clauses.length) return `${head}<p class="detail">None.</p>`;
    const rows = g.clauses.map(
      (x) =>
        `<tr><td class="id">${x.detailed ? `<a href="#${anchor(x.id)}">${esc(x.id)}</a>` : esc(x.id)}</td><td>${badge(x.a)}</td><td>${badge(x.b)}</td><td>${esc(x.first)}</td><td class="detail">${esc(x.summary)}</td></tr>`,
    );
    const why =
      g.category === 'one-skipped'
        ? `<p class="detail">Why:</p>${list(
            skipReasons(g.clauses).map((r) => `<b>${r.side}</b> skipped ${esc(r.clauses.join(', '))}: ${esc(r.reason)}`),
            ' class="failures"',
          )}`
        : '';
    return `${head}${table(['clause', 'A', 'B', 'first difference', 'rule'], rows, ' class="lines"')}${why}`;
  });
  const detailed = c.groups.flatMap((g) => g.clauses).filter((x) => x.detailed);
  const detailsPart = detailed.length ? `<h2>Details</h2>${detailed.map((x) => details(x, c.limits)).join('')}` : '';
  const cell = (status: string) => `<td class="${statusClass(status)}">${esc(status)}</td>`;
  const rows = c.clauses
    .map((x) => `<tr${x.differs ? ' class="differs"' : ''}><td class="id">${esc(x.id)}</td><td>${esc(x.summary)}</td>${cell(x.a)}${cell(x.b)}</tr>`)
    .join('');
  const everything = `<details class="all"><summary>All ${c.clauses.length} clauses, the same ones too</summary>${table(['clause', 'rule', 'A', 'B'], [rows], ' class="clauses"')}</details>`;
  const headers = headersLine(c);
  return page(
    'Compare',
    header,
    `${families(c)}${headers ? `<p class="detail">${esc(headers)}</p>` : ''}${differs ? groups.join('') : ''}${detailsPart}<h2>All clauses</h2>${everything}`,
    STYLE,
  );
}
