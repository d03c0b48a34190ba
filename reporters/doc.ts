/** A report written once as data (headings, paragraphs, lists, tables, collapsed sections), rendered as markdown or as an HTML page. */
export type Inline =
  string | Inline[] | { b: Inline } | { code: string } | { link: Inline; href: string } | { cls: string; text: Inline } | { lines: Inline[] };
/** A row of one cell spans the whole table. */
export type Row = { cells: Inline[]; cls?: string };
export type Block = (
  { h: string } | { p: Inline } | { list: Inline[] } | { table: string[]; rows: Row[] } | { details: Inline; id?: string; body: Block[] }
) & { cls?: string };

export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const statusClass = (s: string) => s.replace(/\s+/g, '-');

function md(x: Inline): string {
  if (typeof x === 'string') return x;
  if (Array.isArray(x)) return x.map(md).join('');
  if ('b' in x) return `**${md(x.b)}**`;
  if ('code' in x) return `\`${x.code.replace(/`/g, "'")}\``;
  // An anchor exists on the page only: the markdown keeps its text.
  if ('link' in x) return x.href.startsWith('#') ? md(x.link) : `[${md(x.link)}](${x.href})`;
  return 'lines' in x ? x.lines.map(md).join('<br>') : md(x.text);
}

const mdCell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

function mdBlock(b: Block): string[] {
  if ('h' in b) return [`## ${b.h}`, ''];
  if ('p' in b) return [md(b.p), ''];
  if ('list' in b) return [...b.list.map((i) => `- ${md(i)}`), ''];
  if ('table' in b) {
    const row = (cells: Inline[]) => `| ${b.table.map((_, i) => mdCell(md(cells[i] ?? ''))).join(' | ')} |`;
    return [row(b.table), `|${'---|'.repeat(b.table.length)}`, ...b.rows.map((r) => row(r.cells)), ''];
  }
  return [`### ${md(b.details)}`, '', ...b.body.flatMap(mdBlock)];
}

export const markdown = (title: string, blocks: Block[]) => [`# ${title}`, '', ...blocks.flatMap(mdBlock)].join('\n');

export const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function html(x: Inline): string {
  if (typeof x === 'string') return esc(x);
  if (Array.isArray(x)) return x.map(html).join('');
  if ('b' in x) return `<b>${html(x.b)}</b>`;
  if ('code' in x) return `<code>${esc(x.code)}</code>`;
  if ('link' in x) return `<a href="${esc(x.href)}">${html(x.link)}</a>`;
  if ('lines' in x) return x.lines.map(html).join('<br>');
  return `<span class="${x.cls}">${html(x.text)}</span>`;
}

function htmlBlock(b: Block): string {
  const cls = b.cls ? ` class="${b.cls}"` : '';
  if ('h' in b) return `<h2>${esc(b.h)}</h2>`;
  if ('p' in b) return `<p${cls}>${html(b.p)}</p>`;
  if ('list' in b) return `<ul${cls}>${b.list.map((i) => `<li>${html(i)}</li>`).join('')}</ul>`;
  if ('table' in b) {
    const span = b.table.length > 1 ? ` colspan="${b.table.length}"` : '';
    const cells = (r: Row) => (r.cells.length === 1 ? `<td${span}>${html(r.cells[0])}</td>` : r.cells.map((c) => `<td>${html(c)}</td>`).join(''));
    const rows = b.rows.map((r) => `<tr${r.cls ? ` class="${r.cls}"` : ''}>${cells(r)}</tr>`).join('');
    return `<table${cls}><thead><tr>${b.table.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`;
  }
  return `<details${b.id ? ` id="${b.id}"` : ''}${cls}><summary>${html(b.details)}</summary>${b.body.map(htmlBlock).join('')}</details>`;
}

const STYLE = `
  :root { --ok: #1a7f37; --bad: #cf222e; --skip: #9a6700; --none: #6e7781; --line: #d0d7de; --soft: #f6f8fa; }
  * { box-sizing: border-box; }
  body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #fff; }
  header { padding: 20px 32px; border-bottom: 1px solid var(--line); background: var(--soft); }
  h1 { font-size: 20px; margin: 0; }
  h2 { font-size: 16px; margin: 28px 0 10px; }
  main { padding: 8px 32px 40px; }
  .pill { padding: 3px 10px; border-radius: 999px; font-weight: 600; font-size: 13px; border: 1px solid var(--line); background: #fff; }
  .verified, .passed { color: var(--ok); } .failed { color: var(--bad); } .skipped { color: var(--skip); } .waived { color: #8250df; } .not-covered, .not-tried-in-this-run { color: var(--none); }
  table { border-collapse: collapse; width: 100%; margin-top: 8px; }
  th, td { border-bottom: 1px solid var(--line); padding: 7px 10px; text-align: left; vertical-align: top; }
  th { background: var(--soft); position: sticky; top: 0; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: #57606a; }
  tr.differs td { background: #fff8c5; }
  .id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; white-space: nowrap; font-weight: 600; }
  .detail { color: #57606a; font-size: 13px; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
`;

/** The page of a report: one stylesheet (`style` adds the report's own rules), escaped text, no scripts. */
export function page(title: string, blocks: Block[], style = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}${style}</style></head>
<body><header><h1>${esc(title)}</h1></header><main>${blocks.map(htmlBlock).join('')}</main></body></html>
`;
}
