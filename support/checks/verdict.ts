/**
 * Collects a test's clause checks: a failed check does not stop the test (one run shows every broken
 * clause), and a test that checked nothing fails, so none passes vacuously. `at(where)` stamps each
 * check with its place, value class and cell, for the failures and the matrix.
 */
import type { TestInfo } from '@playwright/test';
import type { ClauseId } from '../document/clauses';
import { redact } from '../http/redact';
import { ClauseFailure, failureLine, makeFailure, type Check, type Failure, type Finding, type Tried, type Where } from './failure';
import { stampOf, waiverFor, type Waiver } from './waivers';

interface Shared {
  failures: Failure[];
  tried: Map<string, Tried>;
  checks: number;
  /** The configuration's waivers, judged by its day. */
  waivers: readonly Waiver[];
  today: string;
}

export class Verdict {
  constructor(
    private readonly info: TestInfo,
    private readonly strictSpec: boolean,
    waivers: readonly Waiver[] = [],
    today = '',
    readonly where: Where = {},
    private readonly shared: Shared = { failures: [], tried: new Map(), checks: 0, waivers, today },
  ) {}

  /** The same verdict, with every check made through it stamped with `where` (added to this view's own). */
  at(where: Where): Verdict {
    return new Verdict(this.info, this.strictSpec, [], '', { ...this.where, ...where }, this.shared);
  }

  /** Every failure, waived ones too (they carry their waiver). */
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
  check({ ok, ...finding }: Check): boolean {
    if (ok) this.pass(finding.clause);
    else this.fail(finding);
    return ok;
  }

  /** Records a check that held where there is nothing to say about it (e.g. a declared status). */
  pass(clause: ClauseId): void {
    this.shared.checks++;
    const t: Tried = {
      clause,
      ...(this.where.place ? { place: this.where.place } : {}),
      ...(this.where.valueClass ? { valueClass: this.where.valueClass } : {}),
    };
    this.shared.tried.set(`${t.clause}|${t.place ?? ''}|${t.valueClass ?? ''}`, t);
  }

  fail(finding: Finding): void {
    const { clause } = finding;
    this.pass(clause);
    const failure = makeFailure(finding, this.where);
    const waiver = waiverFor(this.shared.waivers, failure, this.shared.today);
    if (waiver) failure.waiver = stampOf(waiver);
    this.shared.failures.push(failure);
    // Each waived failure stays in sight on the test's page, with why it does not count.
    if (waiver)
      this.info.annotations.push({ type: 'waived', description: `${clause} ${failureLine(failure)}: waived until ${waiver.until}: ${waiver.reason}` });
  }

  /** A 4xx the target's spec does not declare: the warning on the test (once), or under STRICT_SPEC=on the failure. */
  drift(failure: Finding, warning: string): void {
    if (this.strictSpec) return this.fail(failure);
    this.pass(failure.clause);
    if (!this.info.annotations.some((a) => a.type === 'spec-drift' && a.description === warning))
      this.info.annotations.push({ type: 'spec-drift', description: warning });
  }

  /** An annotation for the report (a measured value, a finding); it decides nothing. */
  note(type: string, description: string): void {
    this.info.annotations.push({ type, description: redact(description) });
  }

  /** Throws the failures no waiver covers; `requireChecks` fails a test that verified nothing. */
  settle(requireChecks = true): void {
    const unwaived = this.shared.failures.filter((f) => !f.waiver);
    if (unwaived.length) throw new ClauseFailure(unwaived);
    if (requireChecks && this.shared.checks === 0) throw new Error('this test checked nothing: a contract test must verify at least one clause');
  }
}
