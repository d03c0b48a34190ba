/**
 * compare.md and compare.html: two targets side by side, clause by clause; what differs first, ranked.
 * The parts live in reporters/compare/: types, failures (records or text), diff (responses), model
 * (the comparison), markdown and html (the two reports, in the same order).
 */
export type { ClauseComparison, Comparison, Difference, Failure, FailureInput, RequestDiff, Side, TestComparison } from './compare/types';
export { compare, skipReasons } from './compare/model';
export { diffRequests } from './compare/diff';
export { renderCompareMarkdown } from './compare/markdown';
export { renderCompareHtml } from './compare/html';
