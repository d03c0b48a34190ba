/**
 * Which update of a batch answers for each property a read shows otherwise than expected (the state before
 * it with each accepted body applied): a refused body that sent the value read leaked it (CU-7); an
 * accepted one that sent it last did not persist it (CU-1); a change nobody sent is the target's own
 * (a note) after a valid update, else a refused body's doing. Pure.
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
    // Who sent the value read, else (no accepted writer) the refused bodies that sent the property, else (only refused
    // bodies, none of which sent it) all of them: one of them changed what it did not even send.
    const suspects = matching.length ? matching : last >= 0 ? [] : refused.length ? refused : sent.some((s) => s.accepted) ? [] : sent.map((_, i) => i);
    if (suspects.length === 1) findings.push({ kind: 'leak', property, update: suspects[0], before, read: got });
    else if (suspects.length > 1) findings.push({ kind: 'ambiguous', property, updates: suspects, before, read: got });
    else if (last >= 0 && !sent[last].wronglyAccepted)
      findings.push({ kind: 'not-persisted', property, update: last, sent: sent[last].body[property], read: got });
    else findings.push({ kind: 'derived', property, before, read: got });
  }
  return findings;
}
