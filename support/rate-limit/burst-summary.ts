/** The global burst's result beside the contract matrix (`rate-limit-burst.json`), which the bench and the self-test read. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LimitReport } from './measurement';
import { redact } from '../http/redact';

export const BURST_SUMMARY_FILE = 'rate-limit-burst.json';

export type BurstSummary = Pick<LimitReport, 'outcome' | 'requests' | 'waits' | 'story'> & { key: string; measurements: number };

export function writeBurstSummary(reportDir: string, key: string, { outcome, measurements, requests, waits, story }: LimitReport): void {
  const summary: BurstSummary = { key, outcome, measurements: measurements.length, requests, waits, story };
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(join(reportDir, BURST_SUMMARY_FILE), redact(JSON.stringify(summary, null, 2)));
}
