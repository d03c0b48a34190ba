/**
 * Pairwise choice: rows that hold every pair of values of any two dimensions at least once, far fewer than
 * the full product (greedy, as PICT and AETG do). Deterministic by the seed: the same seed, the same rows.
 * Pure.
 */

/** A small seeded generator (mulberry32): the same stream in every process. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Candidate rows tried for each row kept: more covers the pairs in fewer rows, at a little CPU. */
const CANDIDATES = 40;

/** Rows of value indices, one per dimension (`sizes[d]` values in dimension d), covering every pair. */
export function pairwise(sizes: readonly number[], seed: number): number[][] {
  const random = seeded(seed);
  const key = (d1: number, v1: number, d2: number, v2: number) => `${d1}:${v1}|${d2}:${v2}`;
  const uncovered = new Set<string>();
  for (let d1 = 0; d1 < sizes.length; d1++)
    for (let d2 = d1 + 1; d2 < sizes.length; d2++)
      for (let v1 = 0; v1 < sizes[d1]; v1++) for (let v2 = 0; v2 < sizes[d2]; v2++) uncovered.add(key(d1, v1, d2, v2));
  const pairsOf = (row: number[]) => row.flatMap((v1, d1) => row.slice(d1 + 1).map((v2, i) => key(d1, v1, d1 + 1 + i, v2)));
  const rows: number[][] = [];
  while (uncovered.size) {
    // The first candidate starts from an uncovered pair, so every row covers at least one.
    const [first] = uncovered;
    const [[d1, v1], [d2, v2]] = first.split('|').map((p) => p.split(':').map(Number));
    let best: number[] = [];
    let bestGain = -1;
    for (let c = 0; c < CANDIDATES; c++) {
      const row = sizes.map((n) => Math.floor(random() * n));
      if (c === 0) [row[d1], row[d2]] = [v1, v2];
      const gain = pairsOf(row).filter((p) => uncovered.has(p)).length;
      if (gain > bestGain) [best, bestGain] = [row, gain];
    }
    for (const p of pairsOf(best)) uncovered.delete(p);
    rows.push(best);
  }
  return rows;
}

/** The item of a list at a seeded rotation: `rotate(list, seed, i)` gives each i its own, in turn. */
export const rotate = <T>(list: readonly T[], seed: number, i: number): T => list[(Math.floor(seeded(seed)() * list.length) + i) % list.length];
