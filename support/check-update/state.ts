/** A check's state as the suite compares it: the properties a client may write, and equality as a reader of the document sees it. Pure. */
import type { SpecOperation } from '../spec/spec';
import { jsonBodySchema, schemaProperties } from '../spec/target';

export type CheckState = Record<string, unknown>;

export const isState = (v: unknown): v is CheckState => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The update body schema's property names: what a client may write, hence what a restore sends. */
export function writableProperties(updateOp: SpecOperation | undefined): string[] {
  return Object.keys(schemaProperties(jsonBodySchema(updateOp)));
}

/** A value written so that equal values (as sameValue sees them) write the same. */
export function canonicalJson(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).sort().join(',')}]`;
  if (isState(v)) {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined && v[k] !== null);
    return `{${keys
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? String(v);
}

/** Equality as a reader of the document sees it: null and absent alike, arrays as multisets (a target may return locations in its own order). */
export const sameValue = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

/** The writable properties whose values differ between two states. */
export function changedProperties(before: CheckState, after: CheckState, writable: string[]): string[] {
  return writable.filter((k) => (k in before || k in after) && !sameValue(before[k], after[k]));
}

/** The snapshot's writable properties: the body that puts the check back. */
export function restoreBody(snapshot: CheckState, writable: string[], only?: string[]): CheckState {
  const keys = writable.filter((k) => k in snapshot && (!only || only.includes(k)));
  return Object.fromEntries(keys.map((k) => [k, snapshot[k]]));
}
