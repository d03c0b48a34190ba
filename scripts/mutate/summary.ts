/** The markdown summary of a mutation run, written from Stryker's JSON report (mutation-testing-report-schema). */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

interface Position {
  line: number;
  column: number;
}
interface MutantReport {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';
  statusReason?: string;
  location: { start: Position; end: Position };
}
interface JsonReport {
  files: Record<string, { source: string; mutants: MutantReport[] }>;
}

export interface Row {
  file: string;
  line: number;
  mutator: string;
  original: string;
  replacement: string;
  status: MutantReport['status'];
  reason?: string;
}

export interface Score {
  counts: Record<string, number>;
  /** Killed and timed out, of all mutants that are not ignored (NoCoverage counts as undetected). */
  score: number;
  /** The same, of the mutants a default run executes. */
  coveredScore: number;
}

/** The mutated text (1-based lines and columns), on one line, shortened. */
function textAt(source: string, { start, end }: MutantReport['location']): string {
  const lines = source.split('\n');
  const text = lines
    .slice(start.line - 1, end.line)
    .map((l, i, all) => (i === all.length - 1 ? l.slice(0, end.column - 1) : l))
    .map((l, i) => (i === 0 ? l.slice(start.column - 1) : l))
    .join(' ');
  return oneLine(text);
}
const oneLine = (s: string) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 90 ? `${flat.slice(0, 87)}...` : flat;
};

export function readRows(jsonFile: string, root: string): Row[] {
  const report = JSON.parse(readFileSync(jsonFile, 'utf8')) as JsonReport;
  return Object.entries(report.files).flatMap(([file, { source, mutants }]) =>
    mutants.map((m) => ({
      file: relative(root, file) || file,
      line: m.location.start.line,
      mutator: m.mutatorName,
      original: textAt(source, m.location),
      replacement: oneLine(m.replacement ?? ''),
      status: m.status,
      reason: m.statusReason,
    })),
  );
}

export function scoreOf(rows: Row[]): Score {
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.status] = (counts[r.status] ?? 0) + 1;
  const n = (s: string) => counts[s] ?? 0;
  const detected = n('Killed') + n('Timeout');
  const pct = (a: number, b: number) => (b ? Math.round((1000 * a) / b) / 10 : 100);
  return { counts, score: pct(detected, detected + n('Survived') + n('NoCoverage')), coveredScore: pct(detected, detected + n('Survived')) };
}

const cell = (s: string) => `\`${s.replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
const table = (rows: Row[]) => [
  '| where | mutator | original → replacement |',
  '| --- | --- | --- |',
  ...rows.map((r) => `| ${r.file}:${r.line} | ${r.mutator} | ${cell(r.original)} → ${cell(r.replacement)} |`),
];
const byPlace = (a: Row, b: Row) => a.file.localeCompare(b.file) || a.line - b.line;

export function writeSummary(file: string, rows: Row[], facts: { mutate: string[]; minutes?: number; concurrency: number; ran: number }): Score {
  const score = scoreOf(rows);
  const survivors = rows.filter((r) => r.status === 'Survived').sort(byPlace);
  const uncovered = rows.filter((r) => r.status === 'NoCoverage').sort(byPlace);
  const ignored = rows.filter((r) => r.status === 'Ignored');
  const reasons = [...new Set(ignored.map((r) => r.reason ?? ''))].map((reason) => `- ${ignored.filter((r) => r.reason === reason).length}: ${reason}`);
  const lines = [
    '# Mutation testing of the reference',
    '',
    `Mutated: ${facts.mutate.map((m) => `\`${m}\``).join(', ')}. Each mutant was run against the default contract run`,
    '(`npx playwright test`, WAIVERS_FILE=off); it is killed when the run fails.',
    '',
    `**Score: ${score.score} %** (killed or timed out, of all mutants not ignored); **${score.coveredScore} %** of the mutants a default run executes.`,
    '',
    `Mutants: ${Object.entries(score.counts)
      .map(([s, n]) => `${n} ${s}`)
      .join(
        ', ',
      )}. ${facts.ran} results from contract runs${facts.minutes === undefined ? '' : ` in ${facts.minutes} min`} at concurrency ${facts.concurrency}.`,
    '',
    '## Survivors',
    '',
    'Executed by a default run and changed in a way no contract test noticed: equivalent, unobservable by the document, or a gap in the suite.',
    '',
    ...(survivors.length ? table(survivors) : ['None.']),
    '',
    '## Not reached by a default run (NoCoverage)',
    '',
    'Code the default run never executes: a seam only a plugin asks (the owner of a check, say), start-up paths the suite does not take, or requests it never sends.',
    '',
    ...(uncovered.length ? table(uncovered) : ['None.']),
    '',
    '## Ignored',
    '',
    ...(reasons.length ? reasons : ['None.']),
    '',
  ];
  writeFileSync(file, lines.join('\n'));
  return score;
}
