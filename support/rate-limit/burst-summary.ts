/** The global burst's result beside the contract matrix (`rate-limit-burst.json`, its schema in support/run/report-files.ts), which the bench and the self-test read. */
import type { LimitReport } from './measurement';
import { BURST_SUMMARY_FILE, writeReport, type ReportData } from '../run/report-files';

export type BurstSummary = ReportData<typeof BURST_SUMMARY_FILE>;

export function writeBurstSummary(reportDir: string, key: string, { outcome, measurements, requests, waits, story }: LimitReport): void {
  writeReport(reportDir, BURST_SUMMARY_FILE, { key, outcome, measurements: measurements.length, requests, waits, story }, 2);
}
