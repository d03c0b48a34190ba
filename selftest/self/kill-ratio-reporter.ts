/**
 * The self-test's own proof, at the end of the run: the kill ratio of the generated faults (caught on
 * the right clause, place and class ÷ generated) per family and in total, every survivor with its fault
 * string and the catch it missed, the hand-written and independent lists' results, and per clause how
 * many generated faults exercise it (a check that one fault alone exercises is barely proven). Printed
 * for CI and written to reports/self-test/kill-ratio.md and .json. It reads the fault tests'
 * `fault-outcomes` attachments; a fault whose test did not run is counted as not run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { FullConfig, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { CLAUSE_IDS, type ClauseId } from '../../support/document/clauses';
import { OUTCOMES_ATTACHMENT, survivorLines, type FaultOutcome } from './catching';
import { FAULT_CASES } from './fault-catalogue';
import type { FaultCase } from './fault-cases';
import { operatorsOf } from '../../reporters/matrix-operators';
import { declaredCaseSeed } from '../../support/run/config';

interface Options {
  outputDir?: string;
}

interface Tally {
  family: string;
  faults: number;
  ran: number;
  caught: number;
}

export interface KillRatio {
  generated: Tally[];
  total: Tally;
  lists: Tally[];
  survivors: FaultOutcome[];
  known: FaultOutcome[];
  notRun: string[];
  /** Per clause: how many generated faults must be caught on it, and how many were. */
  clauses: Array<{ clause: ClauseId; faults: number; caught: number }>;
  /** Per near-miss operator (and `seeded`): the generated faults whose catch is a value it made. */
  operators: Tally[];
  seed: number;
  /** How the outcomes were decided: in a batch, alone, or again alone after a batch missed them. */
  how: Record<string, number>;
  /** The faults a batch missed (or could not vouch for) and a run alone decided: batching's cost. */
  againAlone: string[];
}

const pct = (t: Tally) => (t.ran ? `${((100 * t.caught) / t.ran).toFixed(1)}%` : '-');

export function tally(family: string, cases: FaultCase[], outcomes: Map<string, FaultOutcome>): Tally {
  const ran = cases.filter((c) => outcomes.has(c.fault));
  return { family, faults: cases.length, ran: ran.length, caught: ran.filter((c) => outcomes.get(c.fault)!.caught).length };
}

export function killRatio(cases: FaultCase[], outcomes: Map<string, FaultOutcome>): KillRatio {
  const generated = cases.filter((c) => c.source === 'generated');
  const families = [...new Set(generated.map((c) => c.family))].sort();
  const all = [...outcomes.values()];
  const counts = new Map<ClauseId, { faults: number; caught: number }>(CLAUSE_IDS.map((id) => [id, { faults: 0, caught: 0 }]));
  for (const c of generated) {
    for (const k of c.catches) {
      const n = counts.get(k.clause)!;
      n.faults++;
      if (outcomes.get(c.fault)?.caught) n.caught++;
    }
  }
  const how: Record<string, number> = {};
  for (const o of all) how[o.how] = (how[o.how] ?? 0) + 1;
  return {
    generated: families.map((f) =>
      tally(
        f,
        generated.filter((c) => c.family === f),
        outcomes,
      ),
    ),
    total: tally('total', generated, outcomes),
    lists: (['hand-written', 'independent', 'independent-6', 'independent-7', 'independent-8', 'independent-9'] as const).map((s) =>
      tally(
        s,
        cases.filter((c) => c.source === s),
        outcomes,
      ),
    ),
    survivors: all.filter((o) => !o.caught && !o.known),
    known: all.filter((o) => !o.caught && o.known),
    notRun: cases.filter((c) => !outcomes.has(c.fault)).map((c) => c.fault),
    clauses: [...counts].map(([clause, n]) => ({ clause, ...n })),
    how,
    againAlone: all.filter((o) => o.how === 'again alone').map((o) => o.fault),
    operators: byOperator(generated, outcomes),
    seed: declaredCaseSeed(),
  };
}

/** The generated faults grouped by the operator named in their catch's value class. */
function byOperator(generated: FaultCase[], outcomes: Map<string, FaultOutcome>): Tally[] {
  const ops = new Map<string, FaultCase[]>();
  for (const c of generated) {
    for (const op of operatorsOf(c.catches.map((k) => k.valueClass ?? ''))) ops.set(op, [...(ops.get(op) ?? []), c]);
  }
  return [...ops].sort(([a], [b]) => a.localeCompare(b)).map(([op, cases]) => tally(op, cases, outcomes));
}

export function renderKillRatio(k: KillRatio): string {
  const row = (t: Tally) =>
    `  ${t.family.padEnd(14)} ${`${t.caught}/${t.ran}`.padStart(9)}  ${pct(t).padStart(6)}${t.ran < t.faults ? `  (${t.faults - t.ran} not run)` : ''}`;
  const lines = ['', 'kill ratio: generated faults caught on their clause, place and class ÷ generated', ...k.generated.map(row), row(k.total)];
  if (k.operators.length) lines.push(`per near-miss operator (values from seed ${k.seed}):`, ...k.operators.map(row));
  lines.push('other fault lists (caught ÷ run):', ...k.lists.map(row));
  lines.push(
    `decided: ${
      Object.entries(k.how)
        .map(([h, n]) => `${n} ${h}`)
        .join(', ') || 'nothing run'
    }`,
  );
  if (k.againAlone.length) lines.push(`  again alone (missed or not vouched for in their batch): ${k.againAlone.join(', ')}`);
  if (k.survivors.length) lines.push(`SURVIVORS (${k.survivors.length}): faults no check caught`, ...k.survivors.flatMap(survivorLines).map((l) => `  ${l}`));
  else lines.push('survivors: none');
  if (k.known.length)
    lines.push(
      `survivors allowed by selftest/self/known-survivors.ts (${k.known.length}):`,
      ...k.known.flatMap((o) => [...survivorLines(o), `    allowed: ${o.known}`]).map((l) => `  ${l}`),
    );
  const exercised = k.clauses.filter((c) => c.faults > 0);
  lines.push(`generated faults per clause: ${exercised.map((c) => `${c.clause} ${c.caught}/${c.faults}`).join(', ') || 'none'}`);
  const once = k.clauses.filter((c) => c.faults === 1).map((c) => c.clause);
  const never = k.clauses.filter((c) => c.faults === 0).map((c) => c.clause);
  if (once.length) lines.push(`clauses only one generated fault exercises: ${once.join(', ')}`);
  if (never.length) lines.push(`clauses no generated fault exercises: ${never.join(', ')}`);
  if (k.notRun.length) lines.push(`not run in this run: ${k.notRun.length} fault(s)`);
  return `${lines.join('\n')}\n`;
}

export default class KillRatioReporter implements Reporter {
  private readonly outcomes = new Map<string, FaultOutcome>();
  private outputDir: string;

  constructor(options: Options = {}) {
    this.outputDir = options.outputDir ?? 'reports/self-test';
  }

  onBegin(config: FullConfig): void {
    // Like Playwright's own reporters: a relative folder is relative to the config file.
    this.outputDir = resolve(config.configFile ? dirname(config.configFile) : process.cwd(), this.outputDir);
  }

  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(_test: TestCase, result: TestResult): void {
    const a = result.attachments.find((x) => x.name === OUTCOMES_ATTACHMENT && x.body);
    if (!a) return;
    for (const o of JSON.parse(a.body!.toString('utf8')) as FaultOutcome[]) this.outcomes.set(o.fault, o);
  }

  onEnd(): void {
    if (!this.outcomes.size) return;
    const k = killRatio(FAULT_CASES, this.outcomes);
    const text = renderKillRatio(k);
    process.stdout.write(text);
    mkdirSync(this.outputDir, { recursive: true });
    writeFileSync(join(this.outputDir, 'kill-ratio.json'), JSON.stringify(k, null, 2));
    writeFileSync(join(this.outputDir, 'kill-ratio.md'), `# Self-test: kill ratio\n\n\`\`\`\n${text.trim()}\n\`\`\`\n`);
    process.stdout.write(`kill ratio report: ${relative(process.cwd(), join(this.outputDir, 'kill-ratio.md'))}\n`);
  }
}
