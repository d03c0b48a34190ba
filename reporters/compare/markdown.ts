/** compare.md, in the order of compare.html. */
import { onceEach, requestOf } from './failures';
import { count, familyTotals, headersLine, lastTitlePart, moreFailures, moreTests, requestsNote, skipLine } from './text';
import { outcomes, skipReasons } from './model';
import type { ClauseComparison, Comparison, Failure, Limits, Side } from './types';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

function sideLine(name: string, s: Side): string {
  return `- **${name}**: ${s.label}${s.problem ? ` (${s.problem})` : ''}${s.reports ? ` · [its reports](${s.reports}/contract-matrix.md)` : ''}`;
}

function details(c: ClauseComparison, limits: Limits): string[] {
  const lines = [`### ${c.id}: A ${c.a}, B ${c.b}`, '', `${c.summary}. First difference: ${c.first}.`, ''];
  for (const side of ['A', 'B'] as const) if ((side === 'A' ? c.a : c.b) === 'skipped') lines.push(skipLine(c, side), '');
  const said = onceEach();
  const values = (f: Failure) => {
    const v = said(f);
    return v ? ` (${v})` : '';
  };
  for (const t of c.tests.slice(0, limits.tests)) {
    lines.push(`**${lastTitlePart(t.title)}** (${outcomes(t)})`, '');
    for (const f of t.failures.slice(0, limits.failures)) lines.push(`- ${f.side}: ${f.title}${values(f)}`);
    if (t.failures.length > limits.failures) lines.push(`- ${moreFailures(t.failures.length, limits.failures)}`);
    if (t.shownIn) lines.push(`- responses: as under ${t.shownIn}`);
    else {
      for (const r of t.requests.slice(0, limits.requests)) {
        const request = `${r.requestB ? `${code(r.request)} / B ${code(r.requestB)}` : code(r.request)}${r.times > 1 ? ` ×${r.times}` : ''}`;
        lines.push(
          `- ${request}: ${r.differences
            .slice(0, limits.differences)
            .map((d) => d.phrase)
            .join('; ')}${r.differences.length > limits.differences ? ` (+${count(r.differences.length - limits.differences, 'more difference')})` : ''}`,
        );
      }
      const note = requestsNote(t, limits);
      if (note) lines.push(`- ${note}`);
    }
    lines.push('');
  }
  const rest = c.tests.slice(limits.tests);
  if (rest.length) lines.push(moreTests(rest), '');
  if (c.failures.length) {
    lines.push(...c.failures.slice(0, limits.failures).map((f) => `- ${f.side}: ${f.title}${requestOf(f) ? ` ${code(requestOf(f))}` : ''}${values(f)}`));
    if (c.failures.length > limits.failures) lines.push(`- ${moreFailures(c.failures.length, limits.failures, true)}`);
    lines.push('');
  }
  return lines;
}

export function renderCompareMarkdown(c: Comparison): string {
  const lines = ['# Compare', '', `**${c.verdict}**`, '', sideLine('A', c.a), sideLine('B', c.b), ''];
  if (c.families.length) {
    lines.push('| family | clauses | same | A only verified | B only verified | skipped on one side |', '|---|---|---|---|---|---|');
    for (const f of c.families) lines.push(`| ${f.family} | ${f.clauses} | ${f.same} | ${f.aOnly || ''} | ${f.bOnly || ''} | ${f.oneSkipped || ''} |`);
    const all = familyTotals(c);
    lines.push(`| **all** | ${all.clauses} | ${all.same} | ${all.aOnly} | ${all.bOnly} | ${all.oneSkipped} |`, '');
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
  const detailed = c.groups.flatMap((g) => g.clauses).filter((x) => x.detailed);
  if (detailed.length) lines.push('## Details', '', ...detailed.flatMap((x) => details(x, c.limits)));
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
