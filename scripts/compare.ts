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
import { loadEnvFile } from '../support/run/config';
import { checkSide, runSides, secretsOf, sideTargets, usage } from './compare-sides';
import { writeComparison } from './compare-write';

async function main() {
  loadEnvFile();
  const [argA, argB] = process.argv.slice(2);
  const targetA = argA ?? process.env.COMPARE_A_URL;
  const targetB = argB ?? process.env.COMPARE_B_URL;
  if (!targetA || !targetB) usage('two targets are needed');
  const reportDir = process.env.REPORT_DIR || 'reports';
  const targets = sideTargets(targetA, targetB);
  targets.forEach(checkSide);
  process.stdout.write(`compare: running the suite against A (${targets[0].label}) and B (${targets[1].label})\n`);
  const [a, b] = await runSides(targets, reportDir);
  const { lines, exitCode } = writeComparison(a, b, reportDir, secretsOf(targets));
  process.stdout.write(lines.map((l) => `${l}\n`).join(''));
  process.exit(exitCode);
}

main().catch((e) => {
  process.stderr.write(`compare: ${(e as Error).message}\n`);
  process.exit(1);
});
