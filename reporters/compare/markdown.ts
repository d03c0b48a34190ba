/** compare.md, in the order of compare.html. */
import { count, detailSections, headersLine, skipReasons, type ClauseSection, type FailureLine } from './sections';
import type { Comparison, Limits, Side } from './types';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;
const failure = (f: FailureLine) => `- ${f.side}: ${f.title}${f.request ? ` ${code(f.request)}` : ''} (${f.values})`;

function sideLine(name: string, s: Side): string {
  return `- **${name}**: ${s.label}${s.problem ? ` (${s.problem})` : ''}${s.reports ? ` · [its reports](${s.reports}/contract-matrix.md)` : ''}`;
}

function details({ clause: c, skips, tests, moreTests, loose, moreLoose }: ClauseSection): string[] {
  const lines = [`### ${c.id}: A ${c.a}, B ${c.b}`, '', `${c.summary}. First difference: ${c.first}.`, ''];
  for (const s of skips) lines.push(s, '');
  for (const t of tests) {
    lines.push(`**${t.title}** (${t.outcomes})`, '', ...t.failures.map(failure));
    if (t.moreFailures) lines.push(`- ${t.moreFailures}`);
    if (t.shownIn) lines.push(`- responses: as under ${t.shownIn}`);
    for (const r of t.requests) {
      const request = `${r.requestB ? `${code(r.request)} / B ${code(r.requestB)}` : code(r.request)}${r.times > 1 ? ` ×${r.times}` : ''}`;
      const more = r.differences.length - r.shown.length;
      lines.push(`- ${request}: ${r.shown.map((d) => d.phrase).join('; ')}${more > 0 ? ` (+${count(more, 'more difference')})` : ''}`);
    }
    if (t.note) lines.push(`- ${t.note}`);
    lines.push('');
  }
  if (moreTests) lines.push(moreTests, '');
  if (loose.length) lines.push(...loose.map(failure), ...(moreLoose ? [`- ${moreLoose}`] : []), '');
  return lines;
}

export function renderCompareMarkdown(c: Comparison, limits?: Limits): string {
  const lines = ['# Compare', '', `**${c.verdict}**`, '', sideLine('A', c.a), sideLine('B', c.b), ''];
  if (c.families.length) {
    lines.push('| family | clauses | same | A only verified | B only verified | skipped on one side |', '|---|---|---|---|---|---|');
    for (const f of c.families) lines.push(`| ${f.family} | ${f.clauses} | ${f.same} | ${f.aOnly || ''} | ${f.bOnly || ''} | ${f.oneSkipped || ''} |`);
    lines.push(`| **all** | ${c.total.clauses} | ${c.total.same} | ${c.total.aOnly} | ${c.total.bOnly} | ${c.total.oneSkipped} |`, '');
  }
  const headers = headersLine(c);
  if (headers) lines.push(headers, '');
  for (const g of c.groups) {
    lines.push(`## ${g.title} (${g.clauses.length})`, '');
    if (!g.clauses.length) {
      lines.push('None.', '');
      continue;
    }
    lines.push(
      '| clause | A | B | first difference | rule |',
      '|---|---|---|---|---|',
      ...g.clauses.map((x) => `| ${x.id} | ${x.a} | ${x.b} | ${cell(x.first)} | ${cell(x.summary)} |`),
      '',
    );
    if (g.category === 'one-skipped') {
      lines.push('Why:', '', ...skipReasons(g.clauses).map((r) => `- ${r.side} skipped ${r.clauses.join(', ')}: ${r.reason}`), '');
    }
  }
  const detailed = detailSections(c, limits);
  if (detailed.length) lines.push('## Details', '', ...detailed.flatMap(details));
  lines.push(
    '## All clauses',
    '',
    '| clause | rule | A | B |',
    '|---|---|---|---|',
    ...c.clauses.map((x) => `| ${x.differs ? `**${x.id}**` : x.id} | ${cell(x.summary)} | ${x.a} | ${x.b} |`),
    '',
  );
  return lines.join('\n');
}
