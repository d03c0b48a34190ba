/**
 * Playwright's JUnit reporter writes every error that is not an `expect` failure as <error>, so CI
 * dashboards would count broken clauses as crashes of the suite. A broken clause is a test failure:
 * this turns the <error> elements of ClauseFailures into <failure> and fixes the counts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const CLAUSE_ERROR = /<error (message="[^"]*") type="(ClauseFailure|Error)">([\s\S]*?)<\/error>/g;

export function clauseErrorsAsFailures(xml: string): string {
  const converted = xml.replace(CLAUSE_ERROR, (whole, message: string, type: string, body: string) => {
    const isClause = type === 'ClauseFailure' || /message="(\d+ clause checks failed|[A-Z]+-\d+: )/.test(message);
    return isClause ? `<failure ${message} type="ClauseFailure">${body}</failure>` : whole;
  });
  // Recount per <testsuite> and for the whole <testsuites>.
  const recount = (block: string) => ({ failures: (block.match(/<failure /g) ?? []).length, errors: (block.match(/<error /g) ?? []).length });
  let out = converted.replace(/<testsuite ([^>]*)>([\s\S]*?)<\/testsuite>/g, (_m, attrs: string, inner: string) => {
    const c = recount(inner);
    return `<testsuite ${attrs.replace(/failures="\d+"/, `failures="${c.failures}"`).replace(/errors="\d+"/, `errors="${c.errors}"`)}>${inner}</testsuite>`;
  });
  const all = recount(out);
  out = out.replace(/<testsuites ([^>]*)>/, (_m, attrs: string) => `<testsuites ${attrs.replace(/failures="\d+"/, `failures="${all.failures}"`).replace(/errors="\d+"/, `errors="${all.errors}"`)}>`);
  return out;
}

export function rewriteJunit(file: string): void {
  if (existsSync(file)) writeFileSync(file, clauseErrorsAsFailures(readFileSync(file, 'utf8')));
}
