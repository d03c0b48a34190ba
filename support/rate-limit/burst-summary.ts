/** The global burst's result beside the contract matrix (`rate-limit-burst.json`), which the bench and the self-test read. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LimitReport } from './measurement';
import { redact } from '../http/redact';

export const BURST_SUMMARY_FILE = 'rate-limit-burst.json';

export interface BurstSummary {
  key: string;
  outcome: LimitReport['outcome'];
  measurements: number;
  requests: number;
  waits: string[];
  story: string[];
}

export function writeBurstSummary(reportDir: string, key: string, report: LimitReport): void {
  const summary: BurstSummary = {
    key,
    outcome: report.outcome,
    measurements: report.measurements.length,
    requests: report.requests,
    waits: report.waits,
    story: report.story,
  };
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(join(reportDir, BURST_SUMMARY_FILE), redact(JSON.stringify(summary, null, 2)));
}
