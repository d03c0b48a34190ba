/**
 * The console of a contract run, instead of Playwright's `list`: how many tests, a progress count on a terminal, anything a test
 * prints as it prints it (a long wait says why: support/run/wait-notice.ts), errors outside the tests, and the counts at the end.
 * The failures themselves are one line per clause from the matrix reporter (run-text.ts); their texts are in the reports.
 */
import { stripVTControlCharacters } from 'node:util';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { count } from './doc';
import { isNoTestsError } from './run-text';

export default class ConsoleReporter implements Reporter {
  private total = 0;
  private done = 0;
  private readonly outcomes = { passed: 0, failed: 0, skipped: 0 };
  /** A progress count on a terminal only: in a CI log every update would be a line. */
  private readonly live = !!process.stdout.isTTY;
  private progressShown = false;

  printsToStdio(): boolean {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.total = suite.allTests().length;
    if (this.total) process.stdout.write(`\nRunning ${count(this.total, 'test')} using ${count(config.workers, 'worker')}\n`);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.done++;
    const outcome = test.outcome();
    this.outcomes[result.status === 'skipped' ? 'skipped' : outcome === 'expected' || outcome === 'flaky' ? 'passed' : 'failed']++;
    if (this.live) this.progress();
  }

  /** A test's own output (the wait notices among it), when it comes, on a line of its own. */
  onStdOut(chunk: string | Buffer): void {
    this.clearProgress();
    process.stdout.write(chunk);
  }

  onStdErr(chunk: string | Buffer): void {
    this.clearProgress();
    process.stderr.write(chunk);
  }

  onError(error: TestError): void {
    // A selection that matched no test gets its one line from the matrix reporter.
    if (isNoTestsError(error)) return;
    this.clearProgress();
    const where = error.location ? ` (${error.location.file}:${error.location.line})` : '';
    process.stderr.write(`error: ${stripVTControlCharacters(error.message ?? error.value ?? 'unknown error').trim()}${where}\n`);
  }

  onEnd(result: FullResult): void {
    if (!this.total) return;
    this.clearProgress();
    const { passed, failed, skipped } = this.outcomes;
    const counts = [failed ? `${failed} failed` : '', skipped ? `${skipped} skipped` : '', `${passed} passed`].filter(Boolean).join(', ');
    const status = result.status === 'interrupted' || result.status === 'timedout' ? ` (${result.status})` : '';
    process.stdout.write(`${counts} in ${(result.duration / 1000).toFixed(1)}s${status}\n`);
  }

  private progress(): void {
    process.stdout.write(`\r${this.done}/${this.total} tests`);
    this.progressShown = true;
  }

  private clearProgress(): void {
    if (this.progressShown) process.stdout.write('\r\x1b[2K');
    this.progressShown = false;
  }
}
