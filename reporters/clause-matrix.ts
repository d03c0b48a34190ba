/**
 * The contract matrix (a row per catalogued clause) and, from the same reading of the run, the other data files and junit.xml.
 * A run test covers what its checks tried (`tried` and `failures` attachments), a test that did not run its declared clauses; never titles.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { CLAUSE_IDS, CLAUSES, familyOf } from '../support/document/clauses';
import { redact } from '../support/http/redact';
import { operatorsOf } from './matrix-operators';
import { declaredCaseSeed } from '../support/run/config';
import { matrixDoc, summaryCounts } from './matrix-doc';
import { markdown, page } from './doc';
import { unique, uniqueBy } from './unique';
import { readRun, type MatrixFailure, type TestRun } from './run-model';
import { renderJunit } from './junit';
import { waiverNotes, type WaiverOptions } from './waiver-notes';
import { REPORT_FILES } from '../support/run/report-files';

export default class ClauseMatrixReporter implements Reporter {
  private outputDir = '';
  private root?: Suite;
  private rootDir = process.cwd();
  private configDir = process.cwd();
  private readonly results = new Map<TestCase, TestResult>();

  /** `waivers`: the run's (playwright.config.ts), for the lines about each; the statuses come from the tests. */
  constructor(private readonly options: { outputDir?: string; waivers?: WaiverOptions } = {}) {}

  onBegin(config: FullConfig, suite: Suite): void {
    this.root = suite;
    this.rootDir = config.rootDir;
    // Like Playwright's own reporters: a relative folder is relative to the config file.
    this.configDir = config.configFile ? dirname(config.configFile) : process.cwd();
    this.outputDir = resolve(this.configDir, this.options.outputDir ?? 'reports');
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.results.set(test, result);
  }

  async onEnd(result: FullResult): Promise<void> {
    const runs = readRun(this.root?.allTests() ?? [], this.results);
    const ran = runs.filter((r) => r.result);
    // Every failure of the run, uncapped, with its test (the self-test reads it); a test's error only where no check failed (waived ones too).
    const failures: RunFailure[] = ran.flatMap((run) =>
      run.failures
        .filter((f, _, all) => !f.error || all.every((x) => x.error))
        .map((f) => ({ ...f, file: run.file, project: run.test.parent.project()?.name ?? '' })),
    );
    const built = buildMatrix(runs, result);
    const matrix = { ...built, waivers: waiverNotes(this.options.waivers, failures, built.clauses) };
    mkdirSync(this.outputDir, { recursive: true });
    const write = (name: string, text: string) => writeFileSync(join(this.outputDir, name), text);
    write(REPORT_FILES.matrixJson, redactedJson(matrix, 2));
    write(REPORT_FILES.observations, redactedJson(Object.fromEntries(ran.filter((r) => r.observations).map((r) => [r.title, r.observations]))));
    write(REPORT_FILES.failures, redactedJson(failures));
    write(REPORT_FILES.tried, redactedJson(ran.map((r) => triedOf(r, this.rootDir))));
    const doc = matrixDoc(matrix);
    write(REPORT_FILES.matrixMarkdown, redact(markdown('Contract matrix', doc)));
    write(REPORT_FILES.junit, renderJunit(runs, this.configDir));
    linkFromHtmlReport(join(this.outputDir, REPORT_FILES.html), redact(page('Contract matrix', doc)));
    const failed = matrix.clauses.filter((c) => c.status === 'failed').map((c) => c.id);
    const counts = summaryCounts(matrix.summary).map(([status, n]) => `${n} ${status}${status === 'failed' && failed.length ? ` (${failed.join(', ')})` : ''}`);
    const notes = matrix.waivers.map((n) => `${redact(n.line)}\n`).join('');
    process.stdout.write(
      `\n${notes}clauses: ${counts.join(', ')}` +
        `${matrix.drift.length ? `; ${matrix.drift.length} spec drift warning(s)` : ''}; ${matrix.requests.total} requests; seed ${matrix.caseSeed}\n` +
        `contract matrix: ${relative(process.cwd(), join(this.outputDir, REPORT_FILES.matrixMarkdown))}\n`,
    );
  }
}

/** What a test tried, under the line that names it in a `--test-list` file (the self-test picks the tests that can catch a fault with it). */
export function triedOf({ test, file, tried }: TestRun, rootDir: string) {
  const [, project, , ...titles] = test.titlePath();
  const listed = relative(rootDir, test.location.file).split(sep).join('/');
  return { id: `[${project}] › ${listed} › ${titles.join(' › ')}`, file, tried };
}

/** One entry of tried.json: a test (its line in a `--test-list` file) and what it tried. */
export type TestTried = ReturnType<typeof triedOf>;

/** One line of failures.json: every failure of a run, with its test; `error` when the test failed before its checks. */
export type RunFailure = MatrixFailure & { file: string; project: string };

/** `waived`: it failed, and an active waiver covers every one of its failures. */
type ClauseStatus = 'verified' | 'waived' | 'failed' | 'skipped' | 'not covered';
type TestStatus = 'passed' | 'waived' | 'failed' | 'skipped';

/** contract-matrix.json (read by the self-test and compare mode); `waivers`: each line printed about the waiver file (used, expired, stale). */
export type Matrix = ReturnType<typeof buildMatrix> & { waivers: ReturnType<typeof waiverNotes> };
export type ClauseRow = Matrix['clauses'][number];

/** The matrix but the lines about waivers: a row per catalogued clause, the drift warnings, the requests per family. */
export function buildMatrix(runs: readonly TestRun[], result: FullResult) {
  // Each test's result per clause: not run, its declared clauses skipped; run, failed where a failure no waiver covers, waived where all were waived, else passed.
  const results = runs.flatMap((run) => {
    const { result, declared, tried, failures } = run;
    const ran = result && result.status !== 'skipped';
    // A test that passed against a stand-in (the embedded agent for a remote target) verified nothing of the target.
    const standIn = run.annotations.find((a) => a.type === 'agent-under-test')?.description;
    return unique(ran ? [...tried.map((t) => t.clause), ...failures.map((f) => f.clause)] : declared).map((id) => {
      const own = failures.filter((f) => f.clause === id);
      const status: TestStatus = !ran ? 'skipped' : own.some((f) => !f.waiver) ? 'failed' : own.length ? 'waived' : standIn ? 'skipped' : 'passed';
      return { run, id, status, standIn };
    });
  });
  const clauses = CLAUSE_IDS.map((id) => {
    const mine = results.filter((r) => r.id === id);
    // `inPassing`: it tried the clause without declaring it (a check made on the way, e.g. an error body).
    const inPassing = (run: TestRun, status: TestStatus) => (status !== 'skipped' && !run.declared.includes(id) ? { inPassing: true as const } : {});
    const tests = mine.map(({ run, status }) => ({ title: run.title, file: run.file, status, ...inPassing(run, status) }));
    // A failed clause shows what failed it (an errored test, its error); a waived one, what its waivers covered.
    const failures = mine.flatMap(({ run, status }) => run.failures.filter((f) => f.clause === id && (status === 'waived' || !f.waiver)));
    const tried = mine.flatMap(({ run }) => run.tried.filter((t) => t.clause === id));
    const valueClasses = unique(tried.map((t) => t.valueClass));
    return {
      id,
      summary: CLAUSES[id],
      status: (Object.entries(ROLL_UP).find(([t]) => tests.some((x) => x.status === t))?.[1] ?? 'not covered') as ClauseStatus,
      tests,
      /** Why the clause was skipped, from the skip annotations. */
      reasons: unique(mine.filter((r) => r.status === 'skipped').map((r) => r.standIn ?? r.run.skipReason)),
      /** The failures of this clause, as the checks made them; a waived clause's carry their waiver. */
      failures: keptOnce(failures.map(({ error: _error, ...f }) => f)),
      waivers: uniqueBy(
        failures.flatMap((f) => f.waiver ?? []),
        (w) => w.entry,
      ),
      /** Where the clause was tried: the routes (by role) and the value classes, from the tests' `tried` attachments. */
      places: unique(tried.map((t) => t.place)),
      valueClasses,
      // The near-miss operators (and `seeded`) among the value classes.
      operators: operatorsOf(valueClasses),
    };
  });
  const requests: Record<string, number> = {};
  for (const { annotations, declared, tried } of runs) {
    const first = declared[0] ?? tried[0]?.clause;
    const family = first ? familyOf(first) : 'other';
    requests[family] = (requests[family] ?? 0) + annotations.filter((a) => a.type === 'requests').reduce((n, a) => n + Number(a.description ?? 0), 0);
  }
  const count = (s: ClauseStatus) => clauses.filter((c) => c.status === s).length;
  return {
    generatedAt: new Date().toISOString(),
    runStatus: result.status,
    summary: { verified: count('verified'), waived: count('waived'), failed: count('failed'), skipped: count('skipped'), notCovered: count('not covered') },
    clauses,
    drift: unique(runs.flatMap((r) => r.annotations.filter((a) => a.type === 'spec-drift').map((a) => a.description))),
    requests: { ...requests, total: Object.values(requests).reduce((a, b) => a + b, 0) },
    // The seed of the generated values (CASE_SEED): the same seed replays the same values.
    caseSeed: declaredCaseSeed(),
  };
}

/** Puts the matrix beside Playwright's HTML report, which is written by now: this reporter is listed after 'html' and reporters end in order. */
function linkFromHtmlReport(htmlDir: string, matrixPage: string): void {
  const index = join(htmlDir, 'index.html');
  if (!existsSync(index)) return;
  writeFileSync(join(htmlDir, REPORT_FILES.matrixHtml), matrixPage);
  const html = readFileSync(index, 'utf8');
  if (html.includes('id="contract-matrix-link"')) return;
  const link =
    '<a id="contract-matrix-link" href="contract-matrix.html" style="position:fixed;right:16px;bottom:16px;z-index:1000;padding:8px 14px;border-radius:999px;background:#0969da;color:#fff;font:600 13px system-ui,sans-serif;text-decoration:none;box-shadow:0 2px 8px rgba(0,0,0,.25)">Contract matrix →</a>';
  writeFileSync(index, html.replace(/<\/body>/i, `${link}</body>`));
}

/** A clause's status: the first of these its tests had, in this order (no test: not covered). */
const ROLL_UP = { failed: 'failed', waived: 'waived', passed: 'verified', skipped: 'skipped' } as const;

const MAX_FAILURES_PER_CLAUSE = 50;

/** A keyed failure (Failure.key) is kept once per clause, however many tests saw it, with the count of sightings; others as they come, up to the cap. */
function keptOnce(failures: readonly MatrixFailure[]): MatrixFailure[] {
  const list: MatrixFailure[] = [];
  for (const f of failures) {
    const same = f.key === undefined ? undefined : list.find((x) => x.key === f.key);
    if (same) same.sightings = (same.sightings ?? 1) + 1;
    else if (list.length < MAX_FAILURES_PER_CLAUSE) list.push(f.key === undefined ? f : { ...f, sightings: 1 });
  }
  return list;
}

/** Every string redacted before writing: redacting the JSON text could eat the backslash of an escaped quote after a credential. */
const redactedJson = (value: unknown, indent?: number) => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? redact(v) : v), indent);
