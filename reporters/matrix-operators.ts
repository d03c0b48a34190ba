/** The near-miss operators a clause was tried with, from its value classes (see support/document/case-choice.ts). */
export function operatorsOf(valueClasses: readonly string[]): string[] {
  const found = valueClasses.map((v) => /(?:^|:)near-miss:([a-z-]+)/.exec(v)?.[1] ?? (/(?:^|:)seeded:\d+$/.test(v) ? 'seeded' : undefined));
  return [...new Set(found.filter((o): o is string => !!o))].sort();
}
