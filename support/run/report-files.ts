/** The names of the files a run writes under the report folder (REPORT_DIR), in one place. */
export const REPORT_FILES = {
  matrixJson: 'contract-matrix.json',
  matrixMarkdown: 'contract-matrix.md',
  /** Beside Playwright's HTML report, linked from its page. */
  matrixHtml: 'contract-matrix.html',
  observations: 'observations.json',
  junit: 'junit.xml',
  html: 'html',
  compareMarkdown: 'compare.md',
  compareHtml: 'compare.html',
} as const;
