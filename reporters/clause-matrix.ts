/**
 * The contract matrix (a row per catalogued clause) and, from the same reading of the run, the other data files and junit.xml.
 * A run test covers what its checks tried (`tried` and `failures` attachments), a test that did not run its declared clauses; never titles.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { CLAUSE_IDS, CLAUSES, familyOf } from '../support/document/clauses';
import { redact } from '../support/http/redact';
import { operatorsOf } from './matrix-operators';
import { declaredCaseSeed, readConfig } from '../support/run/config';
import { readSelection } from '../support/run/selection';
import { EXIT_CONFIG_ERROR } from '../support/run/suite-error';
import { clauseLines, isNoTestsError, matrixDoc, renderJunit, skipLines, summaryCounts } from './run-text';
import { markdown, page } from './doc';
import { unique, uniqueBy } from './unique';
import { readRun, type TestRun } from './run-model';
import { waiverNotes, type WaiverOptions } from './waiver-notes';
import { REPORT_FILES, writeReport, type ClauseRow, type Matrix, type ReportData } from '../support/run/report-files';
import type { Failure } from '../support/checks/failure';
import { LAST_WHOLE_RUN } from './run-outputs';

export default class ClauseMatrixReporter implements Reporter {
  private outputDir = '';
  private root?: Suite;
  private rootDir = process.cwd();
  private configDir = process.cwd();
  private readonly results = new Map<TestCase, TestResult>();
  private readonly errors: TestError[] = [];
  private readonly options: MatrixOptions;

  /**
   * `waivers`: the run's (playwright.config.ts), for the lines about each; the statuses come from the tests. `partial`: why the
   * run tried only part of the suite (support/run/selection.ts). Without options (added by PW_TEST_REPORTER under a command-line
   * --reporter, see playwright.config.ts), the run's own, read as the configuration does.
   */
  constructor(options: MatrixOptions = {}) {
    this.options = options.outputDir === undefined ? contractReportOptions() : options;
  }

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

  onError(error: TestError): void {
    this.errors.push(error);
  }

  async onEnd(result: FullResult): Promise<void> {
    // No test loaded: nothing ran, and the last run's reports stay as they were. A selection that matched nothing is a
    // mistake in the command, not a finding about the target: exit 3 (INTERFACE.md), not 1.
    if (!this.root?.allTests().length) {
      if (this.errors.length && this.errors.every(isNoTestsError)) {
        process.stdout.write(`no test matches this selection${this.options.partial ? ` (${this.options.partial})` : ''}: nothing ran, no report written\n`);
        process.exit(EXIT_CONFIG_ERROR);
      }
      return;
    }
    const runs = readRun(this.root?.allTests() ?? [], this.results);
    const ran = runs.filter((r) => r.result);
    // Every failure of the run, uncapped, with its test (the self-test reads it); a test's error only where no check failed (waived ones too).
    const failures: Failure[] = ran.flatMap((run) =>
      run.failures
        .filter((f, _, all) => !f.error || all.every((x) => x.error))
        .map((f) => ({ ...f, file: run.file, project: run.test.parent.project()?.name ?? '' })),
    );
    const built = buildMatrix(runs, result, this.options.partial);
    const matrix = { ...built, waivers: waiverNotes(this.options.waivers, failures, built.clauses) };
    // The data files, each through its schema (support/run/report-files.ts): what compare mode and the self-test read.
    writeReport(this.outputDir, REPORT_FILES.matrixJson, matrix, 2);
    const observed = ran.filter((r) => r.observations).map((r) => [r.title, r.observations]);
    writeReport(this.outputDir, REPORT_FILES.observations, Object.fromEntries(observed) as ReportData<typeof REPORT_FILES.observations>);
    writeReport(this.outputDir, REPORT_FILES.failures, failures);
    writeReport(
      this.outputDir,
      REPORT_FILES.tried,
      ran.map((r) => triedOf(r, this.rootDir)),
    );
    const write = (name: string, text: string) => writeFileSync(join(this.outputDir, name), text);
    const doc = matrixDoc(matrix);
    write(REPORT_FILES.matrixMarkdown, redact(markdown('Contract matrix', doc)));
    write(REPORT_FILES.junit, renderJunit(runs, this.configDir));
    linkFromHtmlReport(join(this.outputDir, REPORT_FILES.html), redact(page('Contract matrix', doc)));
    const failed = matrix.clauses.filter((c) => c.status === 'failed').map((c) => c.id);
    const counts = summaryCounts(matrix.summary).map(([status, n]) => `${n} ${status}${status === 'failed' && failed.length ? ` (${failed.join(', ')})` : ''}`);
    const notes = matrix.waivers.map((n) => `${redact(n.line)}\n`).join('');
    const where = relative(process.cwd(), join(this.outputDir, REPORT_FILES.matrixMarkdown));
    // One line per skip reason and per failed clause; the failures' texts, bodies and reproduce commands are in the reports.
    const lines = [...skipLines(matrix.clauses), ...clauseLines(matrix.clauses, where)].map((l) => `${redact(l)}\n`).join('');
    const lastWhole = join(this.outputDir, LAST_WHOLE_RUN);
    const kept = existsSync(lastWhole) ? `; the last whole run's reports are in ${relative(process.cwd(), lastWhole)}/` : '';
    process.stdout.write(
      `\n${lines}${notes}${matrix.partial ? `partial run (${matrix.partial}): clauses it did not try are marked not tried in this run${kept}\n` : ''}clauses: ${counts.join(', ')}` +
        `${matrix.drift.length ? `; ${matrix.drift.length} spec drift warning(s)` : ''}; ${matrix.requests.total} requests; seed ${matrix.caseSeed}\n` +
        `contract matrix: ${where}\n`,
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

export type MatrixOptions = { outputDir?: string; waivers?: WaiverOptions; partial?: string };

/** The run's report options, from its configuration and command line: playwright.config.ts gives them, or the reporter reads them itself. */
export function contractReportOptions(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = process.argv): MatrixOptions {
  const config = readConfig(env, { embeddedPortPending: true });
  const waivers = { file: config.waiversFile, entries: config.waivers, today: config.today };
  return { outputDir: config.reportDir, waivers, partial: readSelection(argv).partial };
}

/**
 * `waived`: it failed, and an active waiver covers every one of its failures. `not tried in this run`: a partial run (a grep, some
 * files, a shard) selected no test of it; `not covered`, which only a whole run can tell, no test of the suite tries it.
 */
type ClauseStatus = 'verified' | 'waived' | 'failed' | 'skipped' | 'not covered' | 'not tried in this run';
type TestStatus = 'passed' | 'waived' | 'failed' | 'skipped';

export type { ClauseRow, Matrix };

/** The matrix but the lines about waivers: a row per catalogued clause, the drift warnings, the requests per family. */
export function buildMatrix(runs: readonly TestRun[], result: FullResult, partial?: string): Omit<Matrix, 'waivers'> {
  const untested: ClauseStatus = partial ? 'not tried in this run' : 'not covered';
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
      summary: CLAUSES[id].summary,
      status: (Object.entries(ROLL_UP).find(([t]) => tests.some((x) => x.status === t))?.[1] ?? untested) as ClauseStatus,
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
    summary: {
      verified: count('verified'),
      waived: count('waived'),
      failed: count('failed'),
      skipped: count('skipped'),
      notCovered: count('not covered'),
      ...(partial ? { notTried: count('not tried in this run') } : {}),
    },
    /** Why the run tried only part of the suite; undefined for a whole run. */
    partial,
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
function keptOnce(failures: readonly Failure[]): Failure[] {
  const list: Failure[] = [];
  for (const f of failures) {
    const same = f.key === undefined ? undefined : list.find((x) => x.key === f.key);
    if (same) same.sightings = (same.sightings ?? 1) + 1;
    else if (list.length < MAX_FAILURES_PER_CLAUSE) list.push(f.key === undefined ? f : { ...f, sightings: 1 });
  }
  return list;
}
