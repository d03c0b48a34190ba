/**
 * Compare mode's two runs: each side's settings (COMPARE_A_<VARIABLE> / COMPARE_B_<VARIABLE>), the suite
 * run against each, side by side, and what each run gives the comparison (reporters/compare/model.ts).
 */
import { join, resolve } from 'node:path';
import { EMBEDDED, OBSERVATIONS_VARIABLE, readConfig } from '../support/run/config';
import { EXIT_CONFIG_ERROR, isSuiteError } from '../support/run/suite-error';
import type { Side } from '../reporters/compare/model';
import { runSuite } from './suite-runner';
import { readReport, REPORT_FILES } from '../support/run/report-files';
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

export interface SideTarget {
  name: 'A' | 'B';
  label: string;
  env: Record<string, string | undefined>;
}

export function usage(message: string): never {
  process.stderr.write(`compare: ${message}\nusage: npm run compare -- <urlA|embedded[:fault]> <urlB|embedded[:fault]>  (or COMPARE_A_URL / COMPARE_B_URL)\n`);
  process.exit(EXIT_CONFIG_ERROR);
}

function sideEnv(name: 'A' | 'B', target: string): { label: string; env: Record<string, string | undefined> } {
  const env: Record<string, string | undefined> = { [OBSERVATIONS_VARIABLE]: 'on' };
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

export const sideTargets = (targetA: string, targetB: string): SideTarget[] =>
  (['A', 'B'] as const).map((name, i) => ({ name, ...sideEnv(name, i === 0 ? targetA : targetB) }));

/** A side the suite would refuse stops the comparison before either run, naming the side's own variables. */
export function checkSide({ name, env }: SideTarget): void {
  try {
    readConfig({ ...process.env, ...env }, { embeddedPortPending: true });
  } catch (e) {
    if (!isSuiteError(e, 'config')) throw e;
    process.stderr.write(`compare: side ${name}: ${e.message} (side ${name} reads COMPARE_${name}_<VARIABLE>; API_KEY and ACCOUNT_ID also serve both sides)\n`);
    process.exit(EXIT_CONFIG_ERROR);
  }
}

/** Every secret either side was given (and the embedded service's, when a side is embedded): what this process writes is redacted of them. */
export function secretsOf(targets: SideTarget[]): string[] {
  const given = targets.flatMap((s) => ['API_KEY', 'ACCOUNT_ID', 'SECOND_API_KEY', 'SECOND_ACCOUNT_ID'].map((v) => s.env[v]));
  const embedded = targets.some((s) => s.env.BASE_URL === '') ? [EMBEDDED.apiKey, EMBEDDED.accountId, EMBEDDED.secondApiKey, EMBEDDED.secondAccountId] : [];
  return [...given, ...embedded].filter((s): s is string => !!s);
}

/** Both runs, side by side; each side's full reports under `<reportDir>/compare/<a|b>`. */
export async function runSides(targets: SideTarget[], reportDir: string): Promise<Side[]> {
  const runs = await Promise.all(
    targets.map((s) => runSuite({ reportDir: join(reportDir, 'compare', s.name.toLowerCase()), env: s.env, fault: s.env.MOCK_FAULT, timeoutMs: 600_000 })),
  );
  return runs.map((run, i) => {
    // A side that stopped before any test (configuration, unreachable target) has no verdicts to compare.
    const { matrix, stoppedBefore: stopped } = run;
    return {
      label: targets[i].label,
      matrix,
      observations: readReport(run.reportDir, REPORT_FILES.observations) ?? {},
      exitCode: run.exitCode,
      reports: `compare/${targets[i].name.toLowerCase()}`,
      problem: stopped?.reason ?? (matrix ? undefined : (run.output.trim().split('\n').filter(Boolean).at(-1) ?? `exit ${run.exitCode}`)),
    };
  });
}
