/**
 * What compare mode makes of the two sides' results: compare.md and compare.html (redacted), the lines it
 * prints and its exit code. Apart from the runs (compare-sides.ts), so that the self-test renders recorded
 * results of real runs (selftest/self/compare-recording.ts) exactly as a run's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redact, registerSecret } from '../support/http/redact';
import { compareReports } from '../reporters/compare/report';
import type { Side } from '../reporters/compare/model';
import { REPORT_FILES } from '../support/run/report-files';

export function writeComparison(a: Side, b: Side, reportDir: string, secrets: string[]): { lines: string[]; exitCode: number } {
  // Each side's reports are redacted by its own run; what this process writes is redacted again.
  for (const s of secrets) registerSecret(s);
  const { comparison, markdown, html } = compareReports(a, b);
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(join(reportDir, REPORT_FILES.compareMarkdown), redact(markdown));
  writeFileSync(join(reportDir, REPORT_FILES.compareHtml), redact(html));
  const differing = comparison.clauses.filter((c) => c.differs).map((c) => c.id);
  return {
    lines: [
      `compare: ${redact(comparison.verdict)}${differing.length ? ` Differing: ${differing.join(', ')}.` : ''}`,
      `compare: ${join(reportDir, REPORT_FILES.compareHtml)}, ${join(reportDir, REPORT_FILES.compareMarkdown)} (each side's full reports under ${join(reportDir, 'compare')}/)`,
    ],
    exitCode: !a.matrix || !b.matrix || differing.length ? 1 : 0,
  };
}
