/**
 * reports/junit.xml for CI systems. A broken clause is a test <failure> (its clause and sentence from
 * the test's `failures` attachment); only an error that is not a clause check (the suite itself broke)
 * is an <error>. Built from the failures data, never from error text.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { dirname, relative, resolve } from 'node:path';
import type { FullConfig, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { FAILURES_ATTACHMENT, formatFailure, type Failure } from '../support/checks/failure';
import { redact } from '../support/http/redact';
import { attachedJson } from './clause-matrix';

interface Options {
  outputFile?: string;
}

const xml = (s: string) =>
  stripVTControlCharacters(redact(s))
    .replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

export default class JunitReporter implements Reporter {
  private outputFile: string;
  private root?: Suite;
  private rootDir = process.cwd();
  private readonly results = new Map<TestCase, TestResult>();

  constructor(options: Options = {}) {
    this.outputFile = options.outputFile ?? 'reports/junit.xml';
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.root = suite;
    this.rootDir = config.configFile ? dirname(config.configFile) : process.cwd();
    this.outputFile = resolve(this.rootDir, this.outputFile);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.results.set(test, result);
  }

  onEnd(): void {
    const byFile = new Map<string, TestCase[]>();
    for (const t of this.root?.allTests() ?? []) {
      const file = relative(this.rootDir, t.location.file);
      byFile.set(file, [...(byFile.get(file) ?? []), t]);
    }
    const totals = { tests: 0, failures: 0, errors: 0, skipped: 0, time: 0 };
    const suites = [...byFile].map(([file, tests]) => {
      const counts = { tests: tests.length, failures: 0, errors: 0, skipped: 0, time: 0 };
      const cases = tests.map((t) => {
        const r = this.results.get(t);
        const seconds = (r?.duration ?? 0) / 1000;
        counts.time += seconds;
        const open = `<testcase name="${xml(t.titlePath().slice(3).join(' › '))}" classname="${xml(file)}" time="${seconds.toFixed(3)}">`;
        if (!r || r.status === 'skipped') {
          counts.skipped++;
          const reason = t.annotations.find((a) => a.type === 'skip')?.description ?? '';
          return `${open}<skipped message="${xml(reason)}"/></testcase>`;
        }
        if (t.outcome() === 'expected' || t.outcome() === 'flaky') return `${open}</testcase>`;
        // Failures a waiver covers do not fail the test: its page and the matrix show them.
        const failures = (attachedJson<Failure[]>(r, FAILURES_ATTACHMENT) ?? []).filter((f) => !f.waiver);
        if (failures.length) {
          counts.failures++;
          const clauses = [...new Set(failures.map((f) => f.clause))].join(', ');
          return `${open}<failure type="ClauseFailure" message="${xml(`${clauses}: ${failures[0].title}`)}">${xml(failures.map(formatFailure).join('\n\n'))}</failure></testcase>`;
        }
        counts.errors++;
        const text = r.errors.map((e) => e.message ?? e.value ?? '').join('\n\n');
        return `${open}<error type="Error" message="${xml(text.split('\n')[0] ?? '')}">${xml(text)}</error></testcase>`;
      });
      for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += counts[k];
      return `  <testsuite name="${xml(file)}" tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${counts.time.toFixed(3)}">\n    ${cases.join('\n    ')}\n  </testsuite>`;
    });
    const head = `<testsuites name="contract suite" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${totals.time.toFixed(3)}">`;
    mkdirSync(dirname(this.outputFile), { recursive: true });
    writeFileSync(this.outputFile, `<?xml version="1.0" encoding="UTF-8"?>\n${head}\n${suites.join('\n')}\n</testsuites>\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
