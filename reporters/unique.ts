/** The distinct items that are set, in their order. */
export const unique = <T>(items: ReadonlyArray<T | undefined>) => [...new Set(items)].filter((x): x is T => !!x);

/** The items whose key was not seen before, in their order: the first of each key stays. */
export function uniqueBy<T>(items: readonly T[], key: (item: T) => unknown): T[] {
  const seen = new Set<unknown>();
  return items.filter((item) => !seen.has(key(item)) && !!seen.add(key(item)));
}
