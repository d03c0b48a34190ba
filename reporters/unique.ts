/** The items whose key was not seen before, in their order: the first of each key stays. */
export function uniqueBy<T>(items: readonly T[], key: (item: T) => unknown): T[] {
  const seen = new Set<unknown>();
  return items.filter((item) => !seen.has(key(item)) && !!seen.add(key(item)));
}
