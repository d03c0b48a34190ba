/** compare.md and compare.html: two targets side by side, clause by clause, what differs first (the parts are in reporters/compare/). */
import { compare, LIMITS } from './compare/model';
import { renderCompareHtml } from './compare/html';
import { renderCompareMarkdown } from './compare/markdown';
import type { Comparison, Side } from './compare/types';

/** The page's size the reports keep under, showing less of each difference when there are many. */
const PAGE_BUDGET = 56_000;

/** Both reports, showing as much of each difference as fits the page budget (the same in both). */
export function compareReports(a: Side, b: Side, budget = PAGE_BUDGET): { comparison: Comparison; markdown: string; html: string } {
  let out: { comparison: Comparison; markdown: string; html: string } | undefined;
  for (const limits of LIMITS) {
    const comparison = compare(a, b, limits);
    out = { comparison, markdown: renderCompareMarkdown(comparison), html: renderCompareHtml(comparison) };
    if (Buffer.byteLength(out.html) <= budget) break;
  }
  return out!;
}
