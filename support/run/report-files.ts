/** The names of the files a run writes under the report folder (REPORT_DIR), in one place. */
export const REPORT_FILES = {
  matrixJson: 'contract-matrix.json',
  matrixMarkdown: 'contract-matrix.md',
  /** Beside Playwright's HTML report, linked from its page. */
  matrixHtml: 'contract-matrix.html',
  observations: 'observations.json',
  /** Every failure of the run, uncapped (the self-test attributes faults by them). */
  failures: 'failures.json',
  /** What each test tried, per clause, place and value class. */
  tried: 'tried.json',
  junit: 'junit.xml',
  html: 'html',
  compareMarkdown: 'compare.md',
  compareHtml: 'compare.html',
} as const;
