/**
 * Judging one read-back after a batch of updates: which update answers for each property that reads
 * back otherwise than expected. Pure.
 *
 * Expected = the state before the batch with each accepted body applied in order. A property that
 * differs is
 *   - a leak (CU-7) when a refused body sent exactly the value read (the carriers' name and tag are
 *     unique per cell, so one refused body matches); several matching (a flipped flag): ambiguous,
 *     the runner replays the batch one update at a time to name the one;
 *   - not persisted (CU-1) when an accepted body sent it last and the read shows something else;
 *   - a change nobody sent: derived from a valid update (a note: the document does not say what else
 *     an update may change) when the batch had one, else a refused body's doing (CU-7).
 */
import { sameValue, type CheckState } from './state';

export interface SentUpdate {
  body: CheckState;
  accepted: boolean;
  /** Accepted though the document forbids it: failed on its own clause already; what it stored is no news. */
  wronglyAccepted?: boolean;
  /** Values a read may show instead of the one sent, meaning the same, by property. */
  readsBackAs?: Record<string, unknown[]>;
}

export type Finding =
  | { kind: 'not-persisted'; property: string; update: number; sent: unknown; read: unknown }
  | { kind: 'leak'; property: string; update: number; before: unknown; read: unknown }
  | { kind: 'ambiguous'; property: string; updates: number[]; before: unknown; read: unknown }
  | { kind: 'derived'; property: string; before: unknown; read: unknown };

/** The state the check should have after the batch: each accepted body applied in order. */
export function expectedAfter(start: CheckState, sent: SentUpdate[]): CheckState {
  const out = structuredClone(start);
  for (const s of sent) if (s.accepted) Object.assign(out, structuredClone(s.body));
  return out;
}

const lastIndex = <T>(list: T[], holds: (x: T) => boolean) => {
  for (let i = list.length - 1; i >= 0; i--) if (holds(list[i])) return i;
  return -1;
};

export function attribute(start: CheckState, read: CheckState, sent: SentUpdate[], writable: string[]): Finding[] {
  const expected = expectedAfter(start, sent);
  const findings: Finding[] = [];
  for (const property of writable) {
    const got = read[property];
    const last = lastIndex(sent, (s) => s.accepted && property in s.body);
    const alternatives = last >= 0 ? (sent[last].readsBackAs?.[property] ?? []) : [];
    if (sameValue(expected[property], got) || alternatives.some((a) => sameValue(a, got))) continue;
    const before = expected[property];
    // Refused bodies after the last accepted writer (an earlier leak would have been overwritten).
    const refused = sent.map((s, i) => i).filter((i) => i > last && !sent[i].accepted && property in sent[i].body);
    const matching = refused.filter((i) => sameValue(sent[i].body[property], got));
    if (matching.length === 1) findings.push({ kind: 'leak', property, update: matching[0], before, read: got });
    else if (matching.length > 1) findings.push({ kind: 'ambiguous', property, updates: matching, before, read: got });
    else if (last >= 0 && !sent[last].wronglyAccepted)
      findings.push({ kind: 'not-persisted', property, update: last, sent: sent[last].body[property], read: got });
    else if (last >= 0) findings.push({ kind: 'derived', property, before, read: got });
    else if (refused.length === 1) findings.push({ kind: 'leak', property, update: refused[0], before, read: got });
    else if (refused.length > 1) findings.push({ kind: 'ambiguous', property, updates: refused, before, read: got });
    else if (sent.some((s) => s.accepted)) findings.push({ kind: 'derived', property, before, read: got });
    else {
      // Only refused bodies, none of which sent it: one of them changed what it did not even send.
      const all = sent.map((_, i) => i);
      findings.push(
        all.length === 1 ? { kind: 'leak', property, update: 0, before, read: got } : { kind: 'ambiguous', property, updates: all, before, read: got },
      );
    }
  }
  return findings;
}
