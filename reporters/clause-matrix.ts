/**
 * The contract matrix: one row per clause of the catalogue (covered or not) with verified / failed /
 * skipped / not covered and the tests behind it, written to contract-matrix.md and .json; the console
 * ends with a one-line summary. A run test covers what its checks tried (its `tried` and `failures`
 * attachments); a test that did not run, the clauses it declares. Never read from titles.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { CLAUSE_IDS, CLAUSES, familyOf, isClauseId, type ClauseId } from '../support/document/clauses';
import { redact } from '../support/http/redact';
import { operatorsOf } from './matrix-operators';
import { declaredCaseSeed } from '../support/run/config';
import { renderMatrixMarkdown } from './matrix-markdown';
import { renderMatrixHtml } from './matrix-html';
import type { ClauseRow, ClauseStatus, Matrix, MatrixFailure, RunFailure, TestRef, TestTried } from './matrix-types';
import { waiverNotes, type WaiverOptions } from './waiver-notes';
import { FAILURES_ATTACHMENT, TRIED_ATTACHMENT, type Failure, type Tried } from '../support/checks/failure';
import { REPORT_FILES } from '../support/run/report-files';

interface Options {
  outputDir?: string;
  /** The run's waivers (playwright.config.ts): for the lines about each; the statuses come from the tests. */
  waivers?: WaiverOptions;
}

export default class ClauseMatrixReporter implements Reporter {
  private outputDir: string;
  private root?: Suite;
  private rootDir = process.cwd();
  private readonly results = new Map<TestCase, TestResult>();
  private readonly waivers?: WaiverOptions;

  constructor(options: Options = {}) {
    this.outputDir = options.outputDir ?? 'reports';
    this.waivers = options.waivers;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.root = suite;
    this.rootDir = config.rootDir;
    // Like Playwright's own reporters: a relative folder is relative to the config file.
    this.outputDir = resolve(config.configFile ? dirname(config.configFile) : process.cwd(), this.outputDir);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.results.set(test, result);
  }

  async onEnd(result: FullResult): Promise<void> {
    const failures = this.allFailures();
    const matrix = this.build(result);
    matrix.waivers = waiverNotes(this.waivers, failures, matrix.clauses);
    mkdirSync(this.outputDir, { recursive: true });
    writeFileSync(join(this.outputDir, REPORT_FILES.matrixJson), redactedJson(matrix, 2));
    writeFileSync(join(this.outputDir, REPORT_FILES.observations), redactedJson(this.observations()));
    writeFileSync(join(this.outputDir, REPORT_FILES.failures), redactedJson(failures));
    writeFileSync(join(this.outputDir, REPORT_FILES.tried), redactedJson(this.triedByTest()));
    writeFileSync(join(this.outputDir, REPORT_FILES.matrixMarkdown), redact(renderMatrixMarkdown(matrix)));
    linkFromHtmlReport(join(this.outputDir, REPORT_FILES.html), redact(renderMatrixHtml(matrix)));
    const s = matrix.summary;
    const failed = matrix.clauses.filter((c) => c.status === 'failed').map((c) => c.id);
    const notes = matrix.waivers.map((n) => `${redact(n.line)}\n`).join('');
    process.stdout.write(
      `\n${notes}clauses: ${s.verified} verified, ${s.waived ? `${s.waived} waived, ` : ''}${s.failed} failed${failed.length ? ` (${failed.join(', ')})` : ''}, ${s.skipped} skipped, ${s.notCovered} not covered` +
        `${matrix.drift.length ? `; ${matrix.drift.length} spec drift warning(s)` : ''}; ${matrix.requests.total} requests; seed ${matrix.caseSeed}\n` +
        `contract matrix: ${relative(process.cwd(), join(this.outputDir, REPORT_FILES.matrixMarkdown))}\n`,
    );
  }

  /**
   * Every failure of the run, uncapped, with its test (the self-test reads this): the checks' own
   * failures, and for a test that failed otherwise (an error before any check), its error on each
   * clause it names, as the matrix counts it.
   */
  private allFailures(): RunFailure[] {
    const out: RunFailure[] = [];
    for (const [test, res] of this.results) {
      const ref = { file: fileOf(test), project: test.parent.project()?.name ?? '' };
      const title = titleOf(test);
      const own = attachedJson<Failure[]>(res, FAILURES_ATTACHMENT) ?? [];
      for (const f of own) out.push({ ...f, test: title, ...ref });
      // An error after checks that failed (waived ones too) is not "an error before any check".
      if (!own.length && errored(test, res, own)) for (const f of errorFailures(res, declaredClauses(test), title)) out.push({ ...f, ...ref, error: true });
    }
    return out;
  }

  /**
   * Per test, what it tried (clause, place, value class), under the line that names it in a
   * `--test-list` file (the self-test picks the tests that can catch a fault with it).
   */
  private triedByTest(): TestTried[] {
    const out: TestTried[] = [];
    for (const [test, res] of this.results) {
      const [, project, , ...titles] = test.titlePath();
      const file = relative(this.rootDir, test.location.file).split(sep).join('/');
      out.push({
        id: `[${project}] › ${file} › ${titles.join(' › ')}`,
        file: fileOf(test),
        tried: attachedJson<Tried[]>(res, TRIED_ATTACHMENT) ?? [],
      });
    }
    return out;
  }

  /** Per test, what its responses looked like (compare mode reads this). */
  private observations(): Record<string, unknown[]> {
    const out: Record<string, unknown[]> = {};
    for (const [test, result] of this.results) {
      const observed = attachedJson<unknown[]>(result, 'observations');
      if (observed) out[titleOf(test)] = observed;
    }
    return out;
  }

  private build(result: FullResult): Matrix {
    const tests = this.root?.allTests() ?? [];
    const rows = new Map<ClauseId, ClauseRow>(
      CLAUSE_IDS.map((id) => [
        id,
        { id, summary: CLAUSES[id], status: 'not covered', tests: [], reasons: [], failures: [], waivers: [], places: [], valueClasses: [] },
      ]),
    );
    const drift = new Set<string>();
    const requests: Record<string, number> = {};
    for (const test of tests) {
      const res = this.results.get(test);
      const annotations = annotationsOf(test, res);
      const tried = res ? (attachedJson<Tried[]>(res, TRIED_ATTACHMENT) ?? []) : [];
      const failures = res ? (attachedJson<Failure[]>(res, FAILURES_ATTACHMENT) ?? []) : [];
      const statuses = clauseStatuses(test, res, tried, failures);
      // A test that passed against a stand-in (the embedded agent for a remote target) verified nothing of the target.
      const standIn = annotations.find((a) => a.type === 'agent-under-test')?.description;
      for (const a of annotations) if (a.type === 'spec-drift' && a.description) drift.add(a.description);
      const count = annotations.filter((a) => a.type === 'requests').reduce((n, a) => n + Number(a.description ?? 0), 0);
      const declared = declaredClauses(test);
      const first = declared[0] ?? tried[0]?.clause;
      const family = first ? familyOf(first) : 'other';
      requests[family] = (requests[family] ?? 0) + count;
      const title = titleOf(test);
      for (const [id, measured] of statuses) {
        const row = rows.get(id)!;
        const status = standIn && measured === 'passed' ? 'skipped' : measured;
        const inPassing = status !== 'skipped' && !declared.includes(id);
        row.tests.push({ title, file: fileOf(test), status, ...(inPassing ? { inPassing } : {}) });
        if (status === 'skipped') {
          const reason = standIn ?? annotations.find((a) => a.type === 'skip' || a.type === 'fixme')?.description;
          if (reason && !row.reasons.includes(reason)) row.reasons.push(reason);
        }
        if (status === 'failed' || status === 'waived') {
          // A failed clause shows what failed it (an errored test, its error); a waived one, what its waivers covered.
          const own = failures.filter((f) => f.clause === id && (status === 'waived') === Boolean(f.waiver)).map((f) => ({ ...f, test: title }));
          const shown = own.length || status === 'waived' ? own : errorFailures(res!, [id], title);
          for (const f of shown) addFailure(row.failures, f);
          for (const f of shown) if (f.waiver && !row.waivers.some((w) => w.entry === f.waiver!.entry)) row.waivers.push(f.waiver);
        }
        for (const t of tried.filter((x) => x.clause === id)) {
          if (t.place && !row.places.includes(t.place)) row.places.push(t.place);
          if (t.valueClass && !row.valueClasses.includes(t.valueClass)) row.valueClasses.push(t.valueClass);
        }
      }
    }
    for (const row of rows.values()) row.status = rollUp(row.tests.map((t) => t.status));
    const clauses = [...rows.values()];
    const count = (s: ClauseStatus) => clauses.filter((c) => c.status === s).length;
    return {
      generatedAt: new Date().toISOString(),
      runStatus: result.status,
      summary: { verified: count('verified'), waived: count('waived'), failed: count('failed'), skipped: count('skipped'), notCovered: count('not covered') },
      clauses: clauses.map((c) => ({ ...c, operators: operatorsOf(c.valueClasses) })),
      drift: [...drift],
      waivers: [],
      requests: { ...requests, total: Object.values(requests).reduce((a, b) => a + b, 0) },
      caseSeed: declaredCaseSeed(),
    };
  }
}

/**
 * Puts the matrix beside Playwright's HTML report and a link to it on the report's page. This reporter
 * is listed after 'html' and 'junit' in the config, and reporters end in order, so both are written by now.
 */
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

/** The test's annotations and its run's, each once. */
function annotationsOf(test: TestCase, res?: TestResult): TestCase['annotations'] {
  const seen = new Set<string>();
  const all = [...test.annotations, ...(res?.annotations ?? [])];
  return all.filter((a) => {
    const k = `${a.type}|${a.description}`;
    return !seen.has(k) && (seen.add(k), true);
  });
}

/** The clauses a test declares (`clauses(...)` in support/test.ts): what a test that did not run would have tried. */
const declaredClauses = (test: TestCase): ClauseId[] =>
  test.annotations.filter((a) => a.type === 'clause' && a.description && isClauseId(a.description)).map((a) => a.description as ClauseId);

/** A run test that failed with no failure a waiver leaves standing: an error before or between its checks. */
const errored = (test: TestCase, res: TestResult, failures: readonly Failure[]) =>
  res.status !== 'skipped' && test.outcome() === 'unexpected' && failures.every((f) => f.waiver);

/**
 * A test's result per clause. A test that did not run has its declared clauses skipped; a run test
 * covers what it tried: a clause with a failure no waiver covers failed, one whose every failure was
 * waived waived, the others passed. An errored test fails its declared clauses (but the waived).
 */
function clauseStatuses(test: TestCase, res: TestResult | undefined, tried: readonly Tried[], failures: readonly Failure[]): Map<ClauseId, TestRef['status']> {
  const declared = declaredClauses(test);
  if (!res || res.status === 'skipped') return new Map(declared.map((id) => [id, 'skipped']));
  const error = errored(test, res, failures);
  const out = new Map<ClauseId, TestRef['status']>();
  for (const id of [...tried.map((t) => t.clause), ...failures.map((f) => f.clause), ...(error ? declared : [])]) {
    const own = failures.filter((f) => f.clause === id);
    out.set(id, own.some((f) => !f.waiver) ? 'failed' : own.length ? 'waived' : error && declared.includes(id) ? 'failed' : 'passed');
  }
  return out;
}

function rollUp(statuses: TestRef['status'][]): ClauseStatus {
  if (statuses.length === 0) return 'not covered';
  if (statuses.includes('failed')) return 'failed';
  if (statuses.includes('waived')) return 'waived';
  if (statuses.includes('passed')) return 'verified';
  return 'skipped';
}

const MAX_FAILURES_PER_CLAUSE = 50;

/** A keyed failure (Failure.key) is kept once per clause, however many tests saw it, with the count of sightings; others as they come, up to the cap. */
function addFailure(list: MatrixFailure[], f: MatrixFailure): void {
  const same = f.key === undefined ? undefined : list.find((x) => x.key === f.key);
  if (same) same.sightings = (same.sightings ?? 1) + 1;
  else if (list.length < MAX_FAILURES_PER_CLAUSE) list.push(f.key === undefined ? f : { ...f, sightings: 1 });
}

/** A test as every report names it: its file and describe blocks and its own title; its file under tests/. */
const titleOf = (test: TestCase) => test.titlePath().slice(2).join(' › ');
const fileOf = (test: TestCase) => test.location.file.replace(/^.*\/tests\//, 'tests/');

export function attachedJson<T>(res: TestResult, name: string): T | undefined {
  const a = res.attachments.find((x) => x.name === name && x.body);
  return a ? (JSON.parse(a.body!.toString('utf8')) as T) : undefined;
}

/** What an errored test failed its clauses with: its error's first line, since no check said more. */
function errorFailures(res: TestResult, clauses: readonly ClauseId[], test: string): MatrixFailure[] {
  const firstLine = (e: { message?: string }) =>
    stripVTControlCharacters(e.message ?? '')
      .trim()
      .split('\n')[0];
  const first = res.errors.map(firstLine).find(Boolean) ?? res.status;
  return clauses.map((clause) => ({ clause, title: first, received: 'an error before any check', allowed: 'the test to run its checks', test }));
}

/**
 * JSON with every string redacted before it is written: redacting the JSON text instead could eat the
 * backslash of an escaped quote after a credential (`authorization: Basic …\"`) and break the file.
 */
const redactedJson = (value: unknown, indent?: number) => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? redact(v) : v), indent);
