/**
 * The run's outputs, removed when a run starts so that one that stops early leaves no green matrix of the last run behind for CI. A run
 * whose configuration is bad never starts (exit 3) and leaves them as they were.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redact } from '../support/http/redact';
import { REPORT_FILES } from '../support/run/report-files';
import { markdown } from './doc';

/** Every file of REPORT_FILES but compare mode's, which a run does not write. */
export function clearRunOutputs(reportDir: string): void {
  for (const f of Object.values(REPORT_FILES)) if (!f.startsWith('compare')) rmSync(join(reportDir, f), { force: true, recursive: true });
}

export function writeStoppedMatrix(reportDir: string, reason: string, exitCode: number): void {
  mkdirSync(reportDir, { recursive: true });
  const text = redact(reason);
  writeFileSync(
    join(reportDir, REPORT_FILES.matrixMarkdown),
    markdown('Contract matrix', [{ p: `The run stopped before any test (exit code ${exitCode}): ${text}` }, { p: 'No clause was verified.' }]),
  );
  writeFileSync(
    join(reportDir, REPORT_FILES.matrixJson),
    JSON.stringify({ generatedAt: new Date().toISOString(), runStatus: 'stopped', stopped: { exitCode, reason: text }, clauses: [] }, null, 2),
  );
}
