/**
 * The fault run's test selection, as the project's `grep`: each target runs the tests its plan names
 * (their titles under the target's describe), or all of them: one set lookup per declared test, where a
 * `--test-list` compares every line with every test (seconds for thousands of lines). The key is its
 * grep title (Playwright's `<project> <file> <describes and title>`, tags among them, which both sides
 * leave out).
 */
import { FAULT_RUN_PROJECT, targetFile, type FaultRunPlan } from './plan';

/** A grep title without its tags (` @…` words) and the root's empty title. */
const untagged = (title: string) => title.replace(/ @\S+/g, '').trim();

export class SelectedTests extends RegExp {
  private readonly tests = new Set<string>();
  private readonly wholeTargets: string[] = [];

  constructor(plan: FaultRunPlan) {
    super('');
    plan.targets.forEach((t, i) => {
      const prefix = `${FAULT_RUN_PROJECT} ${targetFile(t, i)} ${t.name}`;
      if (!t.tests) this.wholeTargets.push(`${prefix} `);
      else for (const titles of t.tests) this.tests.add(untagged([prefix, ...titles].join(' ')));
    });
  }

  // RegExp#test (what Playwright calls) goes through exec.
  override exec(grepTitle: string): RegExpExecArray | null {
    const title = untagged(grepTitle);
    const selected = this.tests.has(title) || this.wholeTargets.some((p) => title.startsWith(p));
    return selected ? (Object.assign([grepTitle], { index: 0, input: grepTitle }) as RegExpExecArray) : null;
  }
}
