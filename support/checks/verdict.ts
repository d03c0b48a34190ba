/**
 * Collects a test's clause checks. A failed check does not stop the test (one run shows every broken
 * clause of a response); the fixture settles the verdict when the test ends, and a test that checked
 * nothing fails, so no contract test can pass vacuously.
 *
 * `at(where)` gives a view of the same verdict that stamps each check with its place (the route, by
 * role), its value class and its cell: the failures say where a rule broke, and the matrix shows, per
 * clause, every place and class it was tried with.
 */
import type { TestInfo } from '@playwright/test';
import type { ClauseId } from '../document/clauses';
import type { Exchange } from '../http/exchange';
import { redact } from '../http/redact';
import { ClauseFailure, makeFailure, type Failure, type Tried, type Where } from './failure';

interface Shared {
  failures: Failure[];
  tried: Map<string, Tried>;
  checks: number;
}

export class Verdict {
  private readonly shared: Shared;

  constructor(
    private readonly info: TestInfo,
    private readonly strictSpec: boolean,
    readonly where: Where = {},
    shared?: Shared,
  ) {
    this.shared = shared ?? { failures: [], tried: new Map(), checks: 0 };
  }

  /** The same verdict, with every check made through it stamped with `where` (added to this view's own). */
  at(where: Where): Verdict {
    return new Verdict(this.info, this.strictSpec, { ...this.where, ...where }, this.shared);
  }

  get failures(): readonly Failure[] {
    return this.shared.failures;
  }

  get tried(): Tried[] {
    return [...this.shared.tried.values()];
  }

  get checked(): number {
    return this.shared.checks;
  }

  /** Records one check; returns whether it held, so callers can skip checks that depend on it. */
  check(clause: ClauseId, ok: boolean, title: string, received: unknown, allowed: string, ex?: Exchange): boolean {
    if (ok) this.pass(clause);
    else this.fail(clause, title, received, allowed, ex);
    return ok;
  }

  /** Records a check that held where there is nothing to say about it (e.g. a declared status). */
  pass(clause: ClauseId): void {
    this.count(clause);
  }

  /** `key`: what makes it the same finding as another test's (Failure.key). */
  fail(clause: ClauseId, title: string, received: unknown, allowed: string, ex?: Exchange, key?: string): void {
    this.count(clause);
    this.shared.failures.push({ ...makeFailure(clause, title, received, allowed, this.where, ex), ...(key ? { key } : {}) });
    this.info.annotations.push({ type: 'clause-failed', description: clause });
  }

  /** A 4xx the target's spec does not declare: a warning, or a failure under STRICT_SPEC=on. */
  drift(clause: ClauseId, operation: string, status: number, declared: string[], ex?: Exchange): void {
    const text = `${operation} answered ${status}; the spec declares ${declared.join(', ') || 'nothing'}`;
    if (this.strictSpec)
      return this.fail(clause, 'status not declared by the spec (STRICT_SPEC=on)', status, declared.join(', '), ex, `${operation} ${status} status`);
    this.count(clause);
    if (!this.info.annotations.some((a) => a.type === 'spec-drift' && a.description === text)) {
      this.info.annotations.push({ type: 'spec-drift', description: text });
    }
  }

  /** An annotation for the report (a measured value, a finding); it decides nothing. */
  note(type: string, description: string): void {
    this.info.annotations.push({ type, description: redact(description) });
  }

  /** Throws the collected failures; `requireChecks` fails a test that verified nothing. */
  settle(requireChecks = true): void {
    if (this.shared.failures.length) throw new ClauseFailure([...this.shared.failures]);
    if (requireChecks && this.shared.checks === 0) throw new Error('this test checked nothing: a contract test must verify at least one clause');
  }

  private count(clause: ClauseId): void {
    this.shared.checks++;
    const t: Tried = {
      clause,
      ...(this.where.place ? { place: this.where.place } : {}),
      ...(this.where.valueClass ? { valueClass: this.where.valueClass } : {}),
    };
    this.shared.tried.set(`${t.clause}|${t.place ?? ''}|${t.valueClass ?? ''}`, t);
  }
}
