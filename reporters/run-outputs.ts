/**
 * The run's own outputs under the report folder: removed when a run starts (a run that stops early
 * must not leave the last run's green matrix behind for CI to upload), and a matrix that says why,
 * when a run stops before any test.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redact } from '../support/http/redact';

const OUTPUTS = ['contract-matrix.md', 'contract-matrix.json', 'observations.json', 'failures.json', 'tried.json', 'junit.xml'];

export function clearRunOutputs(reportDir: string): void {
  for (const f of [...OUTPUTS, 'html']) rmSync(join(reportDir, f), { force: true, recursive: true });
}

export function writeStoppedMatrix(reportDir: string, reason: string, exitCode: number): void {
  mkdirSync(reportDir, { recursive: true });
  const text = redact(reason);
  writeFileSync(join(reportDir, 'contract-matrix.md'), `# Contract matrix\n\nThe run stopped before any test (exit code ${exitCode}): ${text}\n\nNo clause was verified.\n`);
  writeFileSync(join(reportDir, 'contract-matrix.json'), JSON.stringify({ generatedAt: new Date().toISOString(), runStatus: 'stopped', stopped: { exitCode, reason: text }, clauses: [] }, null, 2));
}
