/** compare.html, in the order of compare.md; no scripts: <details> does the collapsing. */
import { esc, list, page, statusClass, table } from '../html-page';
import { count, detailSections, headersLine, skipReasons, type ClauseSection, type FailureLine, type TestSection } from './sections';
import type { Comparison, Limits, Side } from './types';

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
const anchor = (id: string) => `d-${id}`;
const detail = (text: string) => `<span class="detail">${esc(text)}</span>`;
/** A failure: side, title (and the request, when no test shows it), then what was received and allowed. */
const failure = (f: FailureLine) => `<b>${f.side}</b> ${esc(f.title)}${f.request ? ` <code>${esc(f.request)}</code>` : ''} ${detail(f.values)}`;

function sideLine(name: string, s: Side): string {
  const reports = s.reports ? ` · <a href="${esc(s.reports)}/contract-matrix.md">its reports</a>` : '';
  return `<div><b>${name}</b> ${esc(s.label)}${s.problem ? ` <span class="failed">(${esc(s.problem)})</span>` : ''}${reports}</div>`;
}

function families(c: Comparison): string {
  if (!c.families.length) return '';
  const n = (v: number) => `<td class="${v ? 'n' : 'n0'}">${v}</td>`;
  const row = (f: Comparison['total'], head: string) => `${head}<td>${f.clauses}</td><td>${f.same}</td>${n(f.aOnly)}${n(f.bOnly)}${n(f.oneSkipped)}</tr>`;
  const rows = [...c.families.map((f) => row(f, `<tr><td class="id">${esc(f.family)}</td>`)), row(c.total, '<tr class="all"><td>all</td>')];
  return table(['family', 'clauses', 'same', 'A only verified', 'B only verified', 'skipped on one side'], rows, ' class="families"');
}

/** The rows of one test: its name and outcomes, its failures, then its requests that differ. */
function testRows(t: TestSection): string {
  const row = (html: string, attrs = ' class="detail"') => `<tr><td colspan="4"${attrs}>${html}</td></tr>`;
  const rows = [`<tr class="test"><th colspan="4">${esc(t.title)} ${detail(t.outcomes)}</th></tr>`, ...t.failures.map((f) => row(failure(f), ''))];
  if (t.moreFailures) rows.push(row(esc(t.moreFailures)));
  if (t.shownIn) rows.push(row(`Responses: as under <a href="#${anchor(t.shownIn)}">${esc(t.shownIn)}</a>`));
  for (const r of t.requests) {
    const more = r.differences.length - r.shown.length;
    const request = `<code>${esc(r.request)}</code>${r.times > 1 ? ` ×${r.times}` : ''}${r.requestB ? `<br><span class="detail">B: <code>${esc(r.requestB)}</code></span>` : ''}${more > 0 ? `<br>${detail(`+${count(more, 'more difference')}`)}` : ''}`;
    r.shown.forEach((d, i) =>
      rows.push(
        `<tr>${i === 0 ? `<td${r.shown.length > 1 ? ` rowspan="${r.shown.length}"` : ''}>${request}</td>` : ''}<td>${esc(d.what)}</td><td><code>${esc(d.a)}</code></td><td><code>${esc(d.b)}</code></td></tr>`,
      ),
    );
  }
  if (t.note) rows.push(row(t.note));
  return rows.join('');
}

function details({ clause: c, skips, tests, moreTests, loose, moreLoose }: ClauseSection): string {
  const requests = tests.length ? table(['request', 'what', 'A', 'B'], [tests.map(testRows).join('')], ' class="requests"') : '';
  const rest = moreTests ? `<p class="detail">${esc(moreTests)}</p>` : '';
  const failures = loose.length ? list([...loose.map(failure), ...(moreLoose ? [detail(moreLoose)] : [])], ' class="failures"') : '';
  const summary = `<summary><b>${esc(c.id)}</b> A ${badge(c.a)}, B ${badge(c.b)}: ${esc(c.first)}</summary>`;
  return `<details class="clause" id="${anchor(c.id)}">${summary}<p class="detail">${esc(c.summary)}</p>${skips.map((s) => `<p>${esc(s)}</p>`).join('')}${requests}${rest}${failures}</details>`;
}

export function renderCompareHtml(c: Comparison, limits?: Limits): string {
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
  const detailed = detailSections(c, limits);
  const detailsPart = detailed.length ? `<h2>Details</h2>${detailed.map(details).join('')}` : '';
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
