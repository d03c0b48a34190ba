/**
 * Collects a test's clause checks: a failed check does not stop the test (one run shows every broken
 * clause), and a test that checked nothing fails, so none passes vacuously. `at(where)` stamps each
 * check with its place, value class and subject, for the failures and the matrix. When the test ends,
 * its failures and what it tried are attached to it (the data every reporter reads), and it fails with
 * the failures no waiver covers.
 */
import type { TestInfo } from '@playwright/test';
import type { ClauseId } from '../document/clauses';
import { redact } from '../http/redact';
import { attachJson } from '../run/attach';
import { ClauseFailure, FAILURES_ATTACHMENT, failureLine, makeFailure, TRIED_ATTACHMENT, type Check, type Failure, type Tried, type Where } from './failure';
import { waiverFor, type Waiver } from './waivers';

export class Verdict {
  readonly where: Where = {};
  /** Every failure, waived ones too (they carry their waiver). */
  readonly failures: Failure[] = [];
  private readonly triedAt = new Map<string, Tried>();

  /** `waivers`: the configuration's, judged by its day (`today`). */
  constructor(
    private readonly info: TestInfo,
    private readonly strictSpec: boolean,
    private readonly waivers: readonly Waiver[] = [],
    private readonly today = '',
  ) {}

  /** The same verdict, with every check made through it stamped with `where` (added to this view's own): a view that records into this one's lists. */
  at(where: Where): Verdict {
    return Object.assign(Object.create(this) as Verdict, { where: { ...this.where, ...where } });
  }

  /** What was tried, per clause, place and value class: every check, held or not (none: the test verified nothing). */
  get tried(): Tried[] {
    return [...this.triedAt.values()];
  }

  /** Records one check; returns whether it held, so callers can skip checks that depend on it. */
  check({ ok, ...finding }: Check): boolean {
    if (ok) this.pass(finding.clause);
    else this.fail(finding);
    return ok;
  }

  /** Records a check that held where there is nothing to say about it (e.g. a declared status). */
  pass(clause: ClauseId): void {
    const { place, valueClass } = this.where;
    this.triedAt.set(`${clause}|${place ?? ''}|${valueClass ?? ''}`, { clause, place, valueClass });
  }

  fail(finding: Omit<Check, 'ok'>): void {
    const { clause } = finding;
    this.pass(clause);
    const failure = makeFailure(finding, this.where);
    const waiver = waiverFor(this.waivers, failure, this.today);
    if (waiver) failure.waiver = { entry: waiver.entry, reason: waiver.reason, until: waiver.until };
    // A keyed finding (one cause: a body at a place and status, a schema path) is one failure of the
    // test, however many of its requests met it; a waived one never stands in for one no waiver covers.
    // Of several, the first in order is kept, not the first to arrive: concurrent requests arrive in any order.
    const same = finding.key === undefined ? -1 : this.failures.findIndex((f) => f.clause === clause && f.key === finding.key && !f.waiver === !waiver);
    if (same >= 0) {
      if (byWhere(failure, this.failures[same]) < 0) this.failures[same] = failure;
      return;
    }
    this.failures.push(failure);
    // Each waived failure stays in sight on the test's page, with why it does not count.
    if (waiver)
      this.info.annotations.push({ type: 'waived', description: `${clause} ${failureLine(failure)}: waived until ${waiver.until}: ${waiver.reason}` });
  }

  /** A 4xx the target's spec does not declare: the warning on the test (once), or under STRICT_SPEC=on the failure. */
  drift(failure: Omit<Check, 'ok'>, warning: string): void {
    if (this.strictSpec) return this.fail(failure);
    this.pass(failure.clause);
    if (!this.info.annotations.some((a) => a.type === 'spec-drift' && a.description === warning))
      this.info.annotations.push({ type: 'spec-drift', description: warning });
  }

  /** An annotation for the report (a measured value, a finding); it decides nothing. */
  note(type: string, description: string): void {
    this.info.annotations.push({ type, description: redact(description) });
  }

  /** The failures and what was tried, each in one order whatever order the requests came back in: two runs against the same target report alike. */
  sortFindings(): void {
    this.failures.sort(byWhere);
    const tried = [...this.triedAt.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.triedAt.clear();
    for (const [k, t] of tried) this.triedAt.set(k, t);
  }

  /**
   * The test's end: its failures and what it tried attached (sorted), a clause annotation for each clause it failed without
   * declaring it (Playwright's own reports then list it; the tags stay the declared ones), then `settle`.
   */
  finish(status: TestInfo['status']): void {
    this.sortFindings();
    if (this.failures.length) attachJson(this.info, FAILURES_ATTACHMENT, this.failures);
    if (this.tried.length) attachJson(this.info, TRIED_ATTACHMENT, this.tried);
    const has = (id: string) => this.info.annotations.some((a) => a.type === 'clause' && a.description === id);
    for (const id of new Set(this.failures.map((f) => f.clause))) if (!has(id)) this.info.annotations.push({ type: 'clause', description: id });
    if (status !== 'skipped') this.settle(status === 'passed');
  }

  /** Throws the failures no waiver covers; `requireChecks` fails a test that verified nothing. */
  settle(requireChecks = true): void {
    const unwaived = this.failures.filter((f) => !f.waiver);
    if (unwaived.length) throw new ClauseFailure(unwaived);
    if (requireChecks && this.triedAt.size === 0) throw new Error('this test checked nothing: a contract test must verify at least one clause');
  }
}

const text = (f: Failure) => [f.clause, f.place, f.valueClass, f.subject, f.field, f.title, f.received, f.exchange?.url].map((x) => x ?? '').join('\0');
/** An order of failures that does not depend on when each was found: by clause, where, then what. */
function byWhere(a: Failure, b: Failure): number {
  const [x, y] = [text(a), text(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}
