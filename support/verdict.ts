/**
 * Collects a test's clause checks. A failed check does not stop the test (one run shows every broken
 * clause of a response); the fixture settles the verdict when the test ends, and a test that checked
 * nothing fails, so no contract test can pass vacuously.
 */
import type { TestInfo } from '@playwright/test';
import type { ClauseId } from './clauses';
import { ClauseFailure } from './failure';
import { redact } from './redact';

export class Verdict {
  readonly failures: ClauseFailure[] = [];
  private checks = 0;

  constructor(
    private readonly info: TestInfo,
    private readonly strictSpec: boolean,
  ) {}

  /** Records one check; returns whether it held, so callers can skip checks that depend on it. */
  check(clause: ClauseId, ok: boolean, title: string, received: unknown, allowed: string): boolean {
    this.checks++;
    if (!ok) this.fail(clause, title, received, allowed);
    return ok;
  }

  /** Records a check that held where there is nothing to say about it (e.g. a declared status). */
  pass(_clause: ClauseId): void {
    this.checks++;
  }

  fail(clause: ClauseId, title: string, received: unknown, allowed: string): void {
    this.checks++;
    const failure = new ClauseFailure(clause, title, received, allowed);
    this.failures.push(failure);
    this.info.annotations.push({ type: 'clause-failed', description: clause });
  }

  /** A 4xx the target's spec does not declare: a warning, or a failure under STRICT_SPEC=on. */
  drift(clause: ClauseId, operation: string, status: number, declared: string[]): void {
    const text = `${operation} answered ${status}; the spec declares ${declared.join(', ') || 'nothing'}`;
    if (this.strictSpec) return this.fail(clause, 'status not declared by the spec (STRICT_SPEC=on)', status, declared.join(', '));
    this.checks++;
    if (!this.info.annotations.some((a) => a.type === 'spec-drift' && a.description === text)) {
      this.info.annotations.push({ type: 'spec-drift', description: text });
    }
  }

  /** Counts a check whose outcome is decided elsewhere (a skip reason, a measured value). */
  note(type: string, description: string): void {
    this.info.annotations.push({ type, description: redact(description) });
  }

  get checked(): number {
    return this.checks;
  }

  /** Throws the collected failures; `requireChecks` fails a test that verified nothing. */
  settle(requireChecks = true): void {
    if (this.failures.length === 1) throw this.failures[0];
    if (this.failures.length > 1) {
      const clauses = [...new Set(this.failures.map((f) => f.clause))].join(', ');
      const error = new Error(`${this.failures.length} clause checks failed (${clauses}):\n\n${this.failures.map((f) => f.message).join('\n\n')}`);
      error.stack = error.message;
      throw error;
    }
    if (requireChecks && this.checks === 0) throw new Error('this test checked nothing: a contract test must verify at least one clause');
  }
}
