/** contract-matrix.html: the matrix as a page, linked from Playwright's HTML report. */
import { esc, list, page, statusClass, table } from './html-page';
import { matrixFailureLine, summaryCounts, triedText, waiversText } from './matrix-markdown';
import type { Matrix } from './matrix-types';

export function renderMatrixHtml(m: Matrix): string {
  const pills = summaryCounts(m.summary)
    .map(([status, n]) => `<span class="pill ${statusClass(status)}">${n} ${status}</span>`)
    .join('');
  const rows = m.clauses.map((c) => {
    const failures = c.failures.map((f) => `<div>${esc(matrixFailureLine(f))}</div>`).join('');
    const detail = c.status === 'skipped' ? esc(c.reasons.join('; ')) : `${c.status === 'waived' ? `<div><b>${esc(waiversText(c))}</b></div>` : ''}${failures}`;
    const tests = c.tests.map((t) => `<li class="${t.status}">${esc(t.title)}</li>`).join('');
    return `<tr><td class="id">${esc(c.id)}</td><td>${esc(c.summary)}</td><td class="${statusClass(c.status)}"><b>${esc(c.status)}</b></td><td class="detail">${detail}</td><td class="detail">${esc(triedText(c))}</td><td><ul class="tests">${tests}</ul></td></tr>`;
  });
  const waivers = m.waivers?.length ? `<h2>Waivers</h2>${list(m.waivers.map((n) => esc(n.line)))}` : '';
  const drift = m.drift.length ? `<h2>Spec drift (warnings)</h2>${list(m.drift.map(esc))}` : '';
  const requests = `<h2>Requests sent</h2><p class="detail">${Object.entries(m.requests)
    .map(([k, v]) => `${esc(k)}: ${v}`)
    .join(' · ')}</p>`;
  return page(
    'Contract matrix',
    `Run of ${esc(m.generatedAt)}<div class="summary">${pills}</div>`,
    `${table(['clause', 'rule', 'result', 'detail', 'tried at', 'tests'], rows)}${waivers}${drift}${requests}`,
  );
}
