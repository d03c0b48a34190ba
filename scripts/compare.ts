/**
 * Compare mode: runs the contract suite against two targets in one invocation and writes
 * reports/compare.html and reports/compare.md: the verdict, a matrix per clause family, one line per
 * differing clause with its first difference, then the details (reporters/compare/).
 *
 *   npm run compare -- <A> <B>
 *
 * A target is a URL, or `embedded` (the reference service), or `embedded:<fault>` (the reference
 * service with an injected fault). Each side takes its own settings from COMPARE_A_<VARIABLE> /
 * COMPARE_B_<VARIABLE> (any variable of the suite: API_KEY, ACCOUNT_ID, SPEC_URL, CHECK_ID, ...; the
 * waiver file: COMPARE_A_WAIVERS_FILE / COMPARE_B_WAIVERS_FILE, else WAIVERS_FILE for both);
 * COMPARE_A_URL / COMPARE_B_URL stand for the two arguments. Exit code: 0 when the sides agree on every
 * clause, 1 when they differ, 3 on bad usage.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EMBEDDED, loadEnvFile, readConfig } from '../support/run/config';
import { EXIT_CONFIG_ERROR, isSuiteError } from '../support/run/suite-error';
import { redact, registerSecret } from '../support/http/redact';
import { compareReports, type Side } from '../reporters/compare-report';
import { runSuite } from './suite-runner';
import { REPORT_FILES } from '../support/run/report-files';
import { WAIVERS_OFF } from '../support/run/waivers-file';

const SUITE_VARIABLES = [
  'API_KEY',
  'ACCOUNT_ID',
  'ACCOUNT_HEADER',
  'SPEC_URL',
  'AGENT_URL',
  'AGENT_COMMAND',
  'CHECK_ID',
  'BROWSER_CHECK_ID',
  'SECOND_API_KEY',
  'SECOND_ACCOUNT_ID',
  'RATE_LIMIT_MAX',
  'RATE_LIMIT_WINDOW_S',
  'BURST',
  'STRICT_SPEC',
];

function usage(message: string): never {
  process.stderr.write(`compare: ${message}\nusage: npm run compare -- <urlA|embedded[:fault]> <urlB|embedded[:fault]>  (or COMPARE_A_URL / COMPARE_B_URL)\n`);
  process.exit(EXIT_CONFIG_ERROR);
}

function sideEnv(name: 'A' | 'B', target: string): { label: string; env: Record<string, string | undefined> } {
  const env: Record<string, string | undefined> = {};
  for (const v of SUITE_VARIABLES) env[v] = process.env[`COMPARE_${name}_${v}`] ?? '';
  // A side's own waiver file, else the common one, else the default (each side's run looks for it).
  // The suite runs from the project root: a path given here is made absolute first.
  const waivers = process.env[`COMPARE_${name}_WAIVERS_FILE`] || process.env.WAIVERS_FILE || '';
  env.WAIVERS_FILE = waivers && waivers !== WAIVERS_OFF ? resolve(waivers) : waivers;
  const embedded = /^embedded(:(.+))?$/.exec(target);
  if (embedded) {
    // Empty, not absent: a .env file must not turn the embedded side into a remote one.
    env.BASE_URL = '';
    if (embedded[2]) env.MOCK_FAULT = embedded[2];
    return { label: `embedded reference service${embedded[2] ? ` with fault ${embedded[2]}` : ''}`, env };
  }
  if (!/^https?:\/\/[^\s]+$/.test(target)) usage(`target ${name} is not an http(s) URL nor "embedded": ${target}`);
  env.BASE_URL = target;
  // Shared credentials are a convenience for two deployments of one account; each side may override.
  env.API_KEY ||= process.env.API_KEY ?? '';
  env.ACCOUNT_ID ||= process.env.ACCOUNT_ID ?? '';
  return { label: target.replace(/\/+$/, ''), env };
}

/** A side the suite would refuse stops the comparison before either run, naming the side's own variables. */
function checkSide(name: 'A' | 'B', env: Record<string, string | undefined>): void {
  try {
    readConfig({ ...process.env, ...env }, { embeddedPortPending: true });
  } catch (e) {
    if (!isSuiteError(e, 'config')) throw e;
    process.stderr.write(`compare: side ${name}: ${e.message} (side ${name} reads COMPARE_${name}_<VARIABLE>; API_KEY and ACCOUNT_ID also serve both sides)\n`);
    process.exit(EXIT_CONFIG_ERROR);
  }
}

const readJson = (file: string) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

async function main() {
  loadEnvFile();
  const [argA, argB] = process.argv.slice(2);
  const targetA = argA ?? process.env.COMPARE_A_URL;
  const targetB = argB ?? process.env.COMPARE_B_URL;
  if (!targetA || !targetB) usage('two targets are needed');
  const reportDir = process.env.REPORT_DIR || 'reports';
  const sides = (['A', 'B'] as const).map((name, i) => ({ name, ...sideEnv(name, i === 0 ? targetA : targetB) }));
  for (const s of sides) checkSide(s.name, s.env);
  process.stdout.write(`compare: running the suite against A (${sides[0].label}) and B (${sides[1].label})\n`);
  const runs = await Promise.all(
    sides.map((s) => runSuite({ reportDir: join(reportDir, 'compare', s.name.toLowerCase()), env: s.env, fault: s.env.MOCK_FAULT, timeoutMs: 600_000 })),
  );
  // Each side's reports are redacted by its own run; what this process writes is redacted again, with
  // every secret either side was given.
  for (const s of sides) for (const v of ['API_KEY', 'ACCOUNT_ID', 'SECOND_API_KEY', 'SECOND_ACCOUNT_ID']) registerSecret(s.env[v]);
  if (sides.some((s) => s.env.BASE_URL === ''))
    for (const v of [EMBEDDED.apiKey, EMBEDDED.accountId, EMBEDDED.secondApiKey, EMBEDDED.secondAccountId]) registerSecret(v);
  const [a, b]: Side[] = runs.map((run, i) => {
    // A side that stopped before any test (configuration, unreachable target) has no verdicts to compare.
    const stopped = (run.matrix as { stopped?: { reason: string } } | undefined)?.stopped;
    const matrix = stopped ? undefined : run.matrix;
    return {
      label: sides[i].label,
      matrix,
      observations: readJson(join(run.reportDir, REPORT_FILES.observations)) ?? {},
      exitCode: run.exitCode,
      reports: `compare/${sides[i].name.toLowerCase()}`,
      problem: stopped?.reason ?? (matrix ? undefined : (run.output.trim().split('\n').filter(Boolean).at(-1) ?? `exit ${run.exitCode}`)),
    };
  });
  const { comparison, markdown, html } = compareReports(a, b);
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(join(reportDir, REPORT_FILES.compareMarkdown), redact(markdown));
  writeFileSync(join(reportDir, REPORT_FILES.compareHtml), redact(html));
  const differing = comparison.clauses.filter((c) => c.differs).map((c) => c.id);
  process.stdout.write(`compare: ${redact(comparison.verdict)}${differing.length ? ` Differing: ${differing.join(', ')}.` : ''}\n`);
  process.stdout.write(
    `compare: ${join(reportDir, REPORT_FILES.compareHtml)}, ${join(reportDir, REPORT_FILES.compareMarkdown)} (each side's full reports under ${join(reportDir, 'compare')}/)\n`,
  );
  process.exit(!a.matrix || !b.matrix || differing.length ? 1 : 0);
}

main().catch((e) => {
  process.stderr.write(`compare: ${(e as Error).message}\n`);
  process.exit(1);
});
