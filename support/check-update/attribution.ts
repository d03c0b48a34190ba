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

/** A property read otherwise than expected: `before` is what the read should have shown (the value an accepted update sent, if one did). */
export interface Finding {
  /** Refused updates changed it (several: which one is not known yet), an accepted one did not persist it, or nobody sent it. */
  kind: 'leak' | 'not-persisted' | 'derived';
  property: string;
  /** The updates that answer for it, by their place in the batch. */
  updates: number[];
  before: unknown;
  read: unknown;
}

/** The state the check should have after the batch: each accepted body applied in order. */
export function expectedAfter(start: CheckState, sent: SentUpdate[]): CheckState {
  const out = structuredClone(start);
  for (const s of sent) if (s.accepted) Object.assign(out, structuredClone(s.body));
  return out;
}

export function attribute(start: CheckState, read: CheckState, sent: SentUpdate[], writable: string[]): Finding[] {
  const expected = expectedAfter(start, sent);
  const findings: Finding[] = [];
  for (const property of writable) {
    const got = read[property];
    const last = Math.max(-1, ...sent.flatMap((s, i) => (s.accepted && property in s.body ? [i] : [])));
    const alternatives = last >= 0 ? (sent[last].readsBackAs?.[property] ?? []) : [];
    if (sameValue(expected[property], got) || alternatives.some((a) => sameValue(a, got))) continue;
    const before = expected[property];
    // Refused bodies after the last accepted writer (an earlier leak would have been overwritten).
    const refused = sent.map((s, i) => i).filter((i) => i > last && !sent[i].accepted && property in sent[i].body);
    const matching = refused.filter((i) => sameValue(sent[i].body[property], got));
    // Who sent the value read, else (no accepted writer) the refused bodies that sent the property, else (only refused
    // bodies, none of which sent it) all of them: one of them changed what it did not even send.
    const suspects = matching.length ? matching : last >= 0 ? [] : refused.length ? refused : sent.some((s) => s.accepted) ? [] : sent.map((_, i) => i);
    const kind = suspects.length ? 'leak' : last >= 0 && !sent[last].wronglyAccepted ? 'not-persisted' : 'derived';
    findings.push({ kind, property, updates: kind === 'leak' ? suspects : kind === 'not-persisted' ? [last] : [], before, read: got });
  }
  return findings;
}
