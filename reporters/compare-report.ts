/** compare.md and compare.html: two targets side by side, clause by clause, what differs first (the parts are in reporters/compare/). */
import { markdown, page } from './doc';
import { compare } from './compare/model';
import { COMPARE_STYLE, compareDoc, LIMITS } from './compare/report';
import type { Limits, Side } from './compare/types';

/** The page's size the reports keep under, showing less of each difference when there are many. */
const PAGE_BUDGET = 56_000;

/** Both reports, showing as much of each difference as fits the page budget (the same in both). */
export function compareReports(a: Side, b: Side, budget = PAGE_BUDGET) {
  const comparison = compare(a, b);
  const html = (l: Limits) => page('Compare', compareDoc(comparison, l), COMPARE_STYLE);
  const limits = LIMITS.find((l) => Buffer.byteLength(html(l)) <= budget) ?? LIMITS.at(-1)!;
  return { comparison, limits, markdown: markdown('Compare', compareDoc(comparison, limits)), html: html(limits) };
}
