/**
 * The run's outputs, removed when a run starts so that one that stops early leaves no green matrix of the last run behind for CI. A run
 * whose configuration is bad never starts (exit 3) and leaves them as they were.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redact } from '../support/http/redact';
import { REPORT_FILES } from '../support/run/report-files';
import { markdown } from './doc';

/** The run outputs: every file of REPORT_FILES but compare mode's, which a run does not write. */
const RUN_OUTPUTS = Object.values(REPORT_FILES).filter((f) => !f.startsWith('compare'));

/** Where a partial run keeps the reports of the last whole run it would otherwise overwrite. */
export const LAST_WHOLE_RUN = 'last-whole-run';

/** Before a whole run: the last run's outputs go, and the last whole run's copy with them (this run is the whole run now). */
export function clearRunOutputs(reportDir: string): void {
  for (const f of [...RUN_OUTPUTS, LAST_WHOLE_RUN]) rmSync(join(reportDir, f), { force: true, recursive: true });
}

/**
 * Before a partial run (a grep, some files, a shard): if the reports in the folder are a whole run's, they are copied to
 * last-whole-run/ first, so that the partial run's own reports never erase them; a copy made before stays until the next whole run.
 */
export function keepLastWholeRun(reportDir: string): void {
  // Read for two facts only, not through the matrix's schema: a whole run's reports of an older version of the suite are kept too.
  let m: { runStatus?: unknown; partial?: unknown } | undefined;
  try {
    m = JSON.parse(readFileSync(join(reportDir, REPORT_FILES.matrixJson), 'utf8'));
  } catch {
    return;
  }
  if (!m || typeof m !== 'object' || m.runStatus === 'stopped' || m.partial) return;
  const keep = join(reportDir, LAST_WHOLE_RUN);
  rmSync(keep, { force: true, recursive: true });
  mkdirSync(keep, { recursive: true });
  for (const f of RUN_OUTPUTS) if (existsSync(join(reportDir, f))) cpSync(join(reportDir, f), join(keep, f), { recursive: true });
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
