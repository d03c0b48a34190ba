/**
 * compare.md, in the order of compare.html: the verdict, the family matrix, one line per differing
 * clause in three groups, then the details of each (tests, failures, responses side by side), then
 * every clause.
 */
import { onceEach, requestOf } from './failures';
import { count, headersLine, moreDiffer } from './text';
import { lastTitlePart, outcomes, SHOWN_DIFFERENCES, SHOWN_FAILURES, SHOWN_REQUESTS, SHOWN_TESTS, skipReasons } from './model';
import type { ClauseComparison, Comparison, Failure, Side } from './types';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

function sideLine(name: string, s: Side): string {
  return `- **${name}**: ${s.label}${s.problem ? ` (${s.problem})` : ''}${s.reports ? ` · [its reports](${s.reports}/contract-matrix.md)` : ''}`;
}

function details(c: ClauseComparison): string[] {
  const lines = [`### ${c.id}: A ${c.a}, B ${c.b}`, '', `${c.summary}. First difference: ${c.first}.`, ''];
  for (const side of ['A', 'B'] as const) if ((side === 'A' ? c.a : c.b) === 'skipped') lines.push(`${side} skipped: ${c.reasons[side].join('; ') || 'no reason given'}`, '');
  const said = onceEach();
  const values = (f: Failure) => {
    const v = said(f);
    return v ? ` (${v})` : '';
  };
  for (const t of c.tests.slice(0, SHOWN_TESTS)) {
    lines.push(`**${lastTitlePart(t.title)}** (${outcomes(t)})`, '');
    for (const f of t.failures.slice(0, SHOWN_FAILURES)) lines.push(`- ${f.side}: ${f.title}${values(f)}`);
    if (t.failures.length > SHOWN_FAILURES) lines.push(`- … ${count(t.failures.length - SHOWN_FAILURES, 'more failure')}`);
    if (t.shownIn) lines.push(`- responses: as under ${t.shownIn}`);
    else {
      for (const r of t.requests.slice(0, SHOWN_REQUESTS)) {
        const request = r.requestB ? `${code(r.request)} / B ${code(r.requestB)}` : code(r.request);
        lines.push(`- ${request}: ${r.differences.slice(0, SHOWN_DIFFERENCES).map((d) => d.phrase).join('; ')}${r.differences.length > SHOWN_DIFFERENCES ? ` (+${count(r.differences.length - SHOWN_DIFFERENCES, 'more difference')})` : ''}`);
      }
      const hidden = t.requests.length - SHOWN_REQUESTS;
      if (hidden > 0 || t.alike) lines.push(`- ${[hidden > 0 ? moreDiffer(hidden, 'request') : '', t.alike ? `${t.alike} answered alike` : ''].filter(Boolean).join('; ')}`);
    }
    lines.push('');
  }
  const rest = c.tests.slice(SHOWN_TESTS);
  if (rest.length) lines.push(`${moreDiffer(rest.length, 'test')}: ${rest.slice(0, 8).map((t) => lastTitlePart(t.title)).join(' · ')}${rest.length > 8 ? ' · …' : ''}`, '');
  if (c.failures.length) {
    lines.push(...c.failures.slice(0, 3).map((f) => `- ${f.side}: ${f.title}${requestOf(f) ? ` ${code(requestOf(f))}` : ''}${values(f)}`));
    if (c.failures.length > 3) lines.push(`- … ${count(c.failures.length - 3, 'more failure')} (each side's contract-matrix.md has them all)`);
    lines.push('');
  }
  return lines;
}

export function renderCompareMarkdown(c: Comparison): string {
  const lines = ['# Compare', '', `**${c.verdict}**`, '', sideLine('A', c.a), sideLine('B', c.b), ''];
  if (c.families.length) {
    lines.push('| family | clauses | same | A only verified | B only verified | skipped on one side |', '|---|---|---|---|---|---|');
    for (const f of c.families) lines.push(`| ${f.family} | ${f.clauses} | ${f.same} | ${f.aOnly || ''} | ${f.bOnly || ''} | ${f.oneSkipped || ''} |`);
    const sum = (k: 'clauses' | 'same' | 'aOnly' | 'bOnly' | 'oneSkipped') => c.families.reduce((n, f) => n + f[k], 0);
    lines.push(`| **all** | ${sum('clauses')} | ${sum('same')} | ${sum('aOnly')} | ${sum('bOnly')} | ${sum('oneSkipped')} |`, '');
  }
  const headers = headersLine(c);
  if (headers) lines.push(headers, '');
  for (const g of c.groups) {
    lines.push(`## ${g.title} (${g.clauses.length})`, '');
    if (!g.clauses.length) {
      lines.push('None.', '');
      continue;
    }
    lines.push('| clause | A | B | first difference | rule |', '|---|---|---|---|---|', ...g.clauses.map((x) => `| ${x.id} | ${x.a} | ${x.b} | ${cell(x.first)} | ${cell(x.summary)} |`), '');
    if (g.category === 'one-skipped') {
      lines.push('Why:', '', ...skipReasons(g.clauses).map((r) => `- ${r.side} skipped ${r.clauses.join(', ')}: ${r.reason}`), '');
    }
  }
  const detailed = c.groups.flatMap((g) => g.clauses).filter((x) => x.category !== 'one-skipped' || x.a === 'failed' || x.b === 'failed');
  if (detailed.length) lines.push('## Details', '', ...detailed.flatMap(details));
  lines.push('## All clauses', '', '| clause | rule | A | B |', '|---|---|---|---|', ...c.clauses.map((x) => `| ${x.differs ? `**${x.id}**` : x.id} | ${cell(x.summary)} | ${x.a} | ${x.b} |`), '');
  return lines.join('\n');
}
