/** The shell of our HTML pages (contract matrix, compare): one stylesheet, escaped text, no scripts. */
export const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
  :root { --ok: #1a7f37; --bad: #cf222e; --skip: #9a6700; --none: #6e7781; --line: #d0d7de; --soft: #f6f8fa; }
  * { box-sizing: border-box; }
  body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #fff; }
  header { padding: 20px 32px; border-bottom: 1px solid var(--line); background: var(--soft); }
  h1 { font-size: 20px; margin: 0 0 6px; }
  h2 { font-size: 16px; margin: 28px 0 10px; }
  main { padding: 8px 32px 40px; }
  .summary { display: flex; gap: 10px; flex-wrap: wrap; margin-top: 10px; }
  .pill { padding: 3px 10px; border-radius: 999px; font-weight: 600; font-size: 13px; border: 1px solid var(--line); background: #fff; }
  .verified, .passed { color: var(--ok); } .failed { color: var(--bad); } .skipped { color: var(--skip); } .waived { color: #8250df; } .not-covered { color: var(--none); }
  table { border-collapse: collapse; width: 100%; margin-top: 8px; }
  th, td { border-bottom: 1px solid var(--line); padding: 7px 10px; text-align: left; vertical-align: top; }
  th { background: var(--soft); position: sticky; top: 0; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: #57606a; }
  tr.differs td { background: #fff8c5; }
  td.id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; white-space: nowrap; font-weight: 600; }
  .detail { color: #57606a; font-size: 13px; }
  code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
  pre { background: var(--soft); padding: 8px; border-radius: 6px; white-space: pre-wrap; margin: 4px 0; }
  ul.tests { margin: 0; padding-left: 16px; color: #57606a; font-size: 12px; }
`;

/** A page; `style` adds rules of its own to the shared stylesheet. */
export function page(title: string, subtitle: string, body: string, style = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}${style}</style></head>
<body><header><h1>${esc(title)}</h1><div class="detail">${subtitle}</div></header><main>${body}</main></body></html>
`;
}

/** A table: its header cells, then its rows (`<tr>…</tr>`), all HTML already. */
export const table = (head: readonly string[], rows: readonly string[], attrs = '') =>
  `<table${attrs}><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;

/** A list of items that are HTML already. */
export const list = (items: readonly string[], attrs = '') => `<ul${attrs}>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;

export const statusClass = (s: string) => s.replace(/\s+/g, '-');
