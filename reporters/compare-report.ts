/**
 * compare.md and compare.html: two targets side by side, clause by clause, and where they differ, what
 * differed in the responses (status codes, body fields and their types, headers that matter).
 */
import type { Observation } from '../support/http/observation';
import { esc, page, statusClass } from './html-page';
import type { ClauseRow, Matrix } from './matrix-types';

export interface Side {
  label: string;
  matrix?: Matrix;
  observations: Record<string, Observation[]>;
  exitCode: number | null;
  /** Why the side produced no matrix (configuration error, unreachable target), from its output. */
  problem?: string;
}

export interface Difference {
  test: string;
  request: string;
  what: string;
  a: string;
  b: string;
}

export interface ClauseComparison {
  id: string;
  summary: string;
  a: string;
  b: string;
  differs: boolean;
  differences: Difference[];
}

export interface Comparison {
  a: Side;
  b: Side;
  clauses: ClauseComparison[];
}

const statusOf = (row?: ClauseRow) => row?.status ?? 'no result';

function diffObservations(test: string, a: Observation[] = [], b: Observation[] = []): Difference[] {
  const out: Difference[] = [];
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n && out.length < 12; i++) {
    const x = a[i];
    const y = b[i];
    const request = x?.request ?? y?.request ?? '?';
    if (!x || !y) {
      out.push({ test, request, what: 'request', a: x ? `${x.status}` : 'not sent', b: y ? `${y.status}` : 'not sent' });
      continue;
    }
    if (x.status !== y.status) out.push({ test, request, what: 'status', a: String(x.status), b: String(y.status) });
    for (const h of new Set([...Object.keys(x.headers), ...Object.keys(y.headers)])) {
      // Values of rate-limit counters differ from run to run; their presence is what matters.
      const volatile = /ratelimit|retry-after|last-modified/i.test(h);
      const hx = x.headers[h];
      const hy = y.headers[h];
      if (volatile ? (hx === undefined) !== (hy === undefined) : hx !== hy) out.push({ test, request, what: `header ${h}`, a: hx ?? 'absent', b: hy ?? 'absent' });
    }
    for (const p of new Set([...Object.keys(x.body), ...Object.keys(y.body)])) {
      if (x.body[p] !== y.body[p]) out.push({ test, request, what: `body ${p}`, a: x.body[p] ?? 'absent', b: y.body[p] ?? 'absent' });
    }
  }
  return out;
}

export function compare(a: Side, b: Side): Comparison {
  const ids = (a.matrix ?? b.matrix)?.clauses.map((c) => c.id) ?? [];
  const clauses = ids.map((id) => {
    const ra = a.matrix?.clauses.find((c) => c.id === id);
    const rb = b.matrix?.clauses.find((c) => c.id === id);
    const differs = statusOf(ra) !== statusOf(rb);
    const tests = new Set([...(ra?.tests ?? []), ...(rb?.tests ?? [])].map((t) => t.title));
    const differences = differs ? [...tests].flatMap((t) => diffObservations(t, a.observations[t], b.observations[t])).slice(0, 20) : [];
    return { id, summary: ra?.summary ?? rb?.summary ?? '', a: statusOf(ra), b: statusOf(rb), differs, differences };
  });
  return { a, b, clauses };
}

const cellMd = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderCompareMarkdown(c: Comparison): string {
  const differing = c.clauses.filter((x) => x.differs);
  const lines = [
    '# Compare',
    '',
    `- **A**: ${c.a.label}${c.a.problem ? ` (${c.a.problem})` : ''}`,
    `- **B**: ${c.b.label}${c.b.problem ? ` (${c.b.problem})` : ''}`,
    '',
    `${differing.length} of ${c.clauses.length} clauses differ${differing.length ? `: ${differing.map((x) => x.id).join(', ')}` : ''}.`,
    '',
    '| clause | rule | A | B |',
    '|---|---|---|---|',
    ...c.clauses.map((x) => `| ${x.differs ? `**${x.id}**` : x.id} | ${cellMd(x.summary)} | ${x.a} | ${x.b} |`),
    '',
  ];
  for (const x of differing) {
    lines.push(`## ${x.id}: A ${x.a}, B ${x.b}`, '', `${x.summary}`, '');
    const failures = [...(c.a.matrix?.clauses.find((r) => r.id === x.id)?.failures ?? []).map((f) => `A: ${f}`), ...(c.b.matrix?.clauses.find((r) => r.id === x.id)?.failures ?? []).map((f) => `B: ${f}`)];
    for (const f of failures.slice(0, 6)) lines.push(`- ${f}`);
    if (failures.length > 6) lines.push(`- … ${failures.length - 6} more (see each side's contract-matrix.md)`);
    if (x.differences.length) {
      lines.push('', '| test | request | what | A | B |', '|---|---|---|---|---|');
      for (const d of x.differences) lines.push(`| ${cellMd(d.test)} | \`${cellMd(d.request)}\` | ${cellMd(d.what)} | \`${cellMd(d.a)}\` | \`${cellMd(d.b)}\` |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

export function renderCompareHtml(c: Comparison): string {
  const differing = c.clauses.filter((x) => x.differs);
  const rows = c.clauses.map((x) => `<tr class="${x.differs ? 'differs' : ''}"><td class="id">${esc(x.id)}</td><td>${esc(x.summary)}</td><td class="${statusClass(x.a)}"><b>${esc(x.a)}</b></td><td class="${statusClass(x.b)}"><b>${esc(x.b)}</b></td></tr>`).join('');
  const details = differing.map((x) => {
    const all = [...(c.a.matrix?.clauses.find((r) => r.id === x.id)?.failures ?? []).map((f) => `<li><b>A</b> ${esc(f)}</li>`), ...(c.b.matrix?.clauses.find((r) => r.id === x.id)?.failures ?? []).map((f) => `<li><b>B</b> ${esc(f)}</li>`)];
    const failures = all.slice(0, 6).join('') + (all.length > 6 ? `<li class="detail">… ${all.length - 6} more (see each side's contract-matrix.md)</li>` : '');
    const diffs = x.differences.length
      ? `<table class="differences"><thead><tr><th>test</th><th>request</th><th>what</th><th class="diff-side">A</th><th class="diff-side">B</th></tr></thead><tbody>${x.differences.map((d) => `<tr><td>${esc(d.test.split(" › ").at(-1))}</td><td><code>${esc(d.request)}</code></td><td>${esc(d.what)}</td><td><code>${esc(d.a)}</code></td><td><code>${esc(d.b)}</code></td></tr>`).join('')}</tbody></table>`
      : '<p class="detail">No response differed; the verdicts differ.</p>';
    return `<section id="${esc(x.id)}"><h2>${esc(x.id)}: A <span class="${statusClass(x.a)}">${esc(x.a)}</span>, B <span class="${statusClass(x.b)}">${esc(x.b)}</span></h2><p>${esc(x.summary)}</p><ul>${failures}</ul>${diffs}</section>`;
  }).join('');
  const side = (name: string, s: Side) => `<div><b>${name}</b> ${esc(s.label)}${s.problem ? ` <span class="failed">(${esc(s.problem)})</span>` : ''}</div>`;
  const summary = `<span class="pill ${differing.length ? 'failed' : 'verified'}">${differing.length} of ${c.clauses.length} clauses differ</span>${differing.map((x) => `<a class="pill" href="#${esc(x.id)}">${esc(x.id)}</a>`).join('')}`;
  // What differs comes first: that is what a person opens the page for; the full table follows.
  const body = `${details ? `${details}<h2>All clauses</h2>` : '<p>The two targets agree on every clause.</p>'}<table class="clauses"><thead><tr><th>clause</th><th>rule</th><th>A</th><th>B</th></tr></thead><tbody>${rows}</tbody></table>`;
  return page('Compare', `${side('A', c.a)}${side('B', c.b)}<div class="summary">${summary}</div>`, body);
}
