/**
 * The files a run writes under the report folder (REPORT_DIR): their names, the schema of each data file, and the one way to
 * write (every string redacted) and to read them (through the schema: a file that does not match reads as nothing). The
 * reporters write them; compare mode, the self-test and the bench read them.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod/v3';
import { failureSchema, triedSchema } from '../checks/failure';
import { redact } from '../http/redact';

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

/** The global burst's result (support/rate-limit/burst-summary.ts), beside the contract matrix; not every run writes it. */
export const BURST_SUMMARY_FILE = 'rate-limit-burst.json';

const strings = z.array(z.string());
const clauseStatus = z.enum(['verified', 'waived', 'failed', 'skipped', 'not covered', 'not tried in this run']);

/** A row of the contract matrix: a catalogued clause, its status, the tests behind it and its failures (at most 50, keyed ones once). */
const clauseRowSchema = z.object({
  id: z.string(),
  summary: z.string(),
  status: clauseStatus,
  tests: z.array(
    z.object({ title: z.string(), file: z.string(), status: z.enum(['passed', 'waived', 'failed', 'skipped']), inPassing: z.literal(true).optional() }),
  ),
  /** Why the clause was skipped, from the skip annotations. */
  reasons: strings,
  failures: z.array(failureSchema),
  waivers: z.array(z.object({ entry: z.number(), reason: z.string(), until: z.string() })),
  /** Where the clause was tried: the routes (by role) and the value classes. */
  places: strings,
  valueClasses: strings,
  operators: strings.optional(),
});

const waiverNoteSchema = z.object({
  entry: z.number(),
  clause: z.string(),
  until: z.string(),
  kind: z.enum(['used', 'expired', 'stale']),
  failures: z.number(),
  line: z.string(),
});

/** contract-matrix.json: a row per catalogued clause, the waivers used, expired and stale, the drift warnings, the requests per family. */
export const matrixSchema = z.object({
  generatedAt: z.string(),
  runStatus: z.string(),
  summary: z.object({
    verified: z.number(),
    waived: z.number(),
    failed: z.number(),
    skipped: z.number(),
    notCovered: z.number(),
    notTried: z.number().optional(),
  }),
  /** Why the run tried only part of the suite; absent for a whole run. */
  partial: z.string().optional(),
  clauses: z.array(clauseRowSchema),
  drift: strings,
  requests: z.record(z.number()),
  /** The seed of the generated values (CASE_SEED). */
  caseSeed: z.union([z.number(), z.string()]).optional(),
  /** Each line printed about the waiver file: used, expired, stale. */
  waivers: z.array(waiverNoteSchema),
});
/** What a run stopped before any test writes there instead (reporters/run-outputs.ts). */
const stoppedMatrixSchema = z.object({
  generatedAt: z.string(),
  runStatus: z.literal('stopped'),
  stopped: z.object({ exitCode: z.number(), reason: z.string() }),
  clauses: z.array(z.never()),
});
export type Matrix = z.infer<typeof matrixSchema>;
export type ClauseRow = Matrix['clauses'][number];

/** What a response looked like, for compare mode: its request, the spec route, status, the headers that matter, the body's shape. */
const observationSchema = z.object({ request: z.string(), route: z.string(), status: z.number(), headers: z.record(z.string()), body: z.record(z.string()) });
export type Observation = z.infer<typeof observationSchema>;

/** The data files, by name: what each holds. */
export const REPORT_SCHEMAS = {
  [REPORT_FILES.matrixJson]: z.union([stoppedMatrixSchema, matrixSchema]),
  /** Every failure of the run, with its test, file and project; `error` when the test failed before its checks. */
  [REPORT_FILES.failures]: z.array(failureSchema),
  /** Per test (its line in a `--test-list` file), what it tried. */
  [REPORT_FILES.tried]: z.array(z.object({ id: z.string(), file: z.string(), tried: z.array(triedSchema) })),
  /** Per test title, its responses (compare mode's runs only). */
  [REPORT_FILES.observations]: z.record(z.array(observationSchema)),
  [BURST_SUMMARY_FILE]: z.object({
    key: z.string(),
    outcome: z.object({ kind: z.string() }).passthrough(),
    measurements: z.number(),
    requests: z.number(),
    waits: strings,
    story: strings,
  }),
};
type ReportFile = keyof typeof REPORT_SCHEMAS;
export type ReportData<F extends ReportFile> = z.infer<(typeof REPORT_SCHEMAS)[F]>;

/** Writes a data file, every string redacted (redacting the JSON text could eat the backslash of an escaped quote after a credential). */
export function writeReport<F extends ReportFile>(dir: string, file: F, value: ReportData<F>, indent?: number): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, file),
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? redact(v) : v), indent),
  );
}

/** Reads a data file through its schema: undefined when it is missing, not JSON, or not what the schema says. */
export function readReport<F extends ReportFile>(dir: string, file: F): ReportData<F> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  } catch {
    return undefined;
  }
  const parsed = REPORT_SCHEMAS[file].safeParse(json);
  return parsed.success ? (parsed.data as ReportData<F>) : undefined;
}
