/**
 * Atomicity carriers (CU-7): valid changes of each kind the body schema has (a name, a boolean, an array,
 * a nested object) that a body the target must or may refuse carries beside its invalid value; the name
 * and the tag are unique per cell, so a leak in a batch names its cell. Pure.
 */
import { jsonBodySchema, schemaProperties } from '../spec/target';
import type { SpecOperation } from '../spec/spec';
import { isState, type CheckState } from './state';
import { shapedAs, type UpdateVocabulary } from './vocabulary';

type CarrierKind = 'name' | 'boolean' | 'array' | 'object';

/** The body property that carries each kind; a kind the body has no property for is absent. */
export type CarrierPlan = Partial<Record<CarrierKind, string>>;

/** Flags a leak would do the least harm with first (activated, last, would stop a real check from running). */
const BOOLEANS = ['muted', 'doubleCheck', 'shouldFail', 'runParallel', 'useGlobalAlertSettings', 'activated'];
const ARRAYS = ['tags'];
const OBJECTS = ['retryStrategy', 'alertSettings'];

/** The carriers a target's update body schema allows, by the published names where it has them. */
export function planCarriers(updateOp: SpecOperation | undefined, vocabulary: UpdateVocabulary): CarrierPlan {
  const props = schemaProperties(jsonBodySchema(updateOp));
  const first = (names: string[], type: 'boolean' | 'array' | 'object') => names.find((n) => n in props && shapedAs(props[n], type));
  const plan: CarrierPlan = { name: vocabulary.name, boolean: first(BOOLEANS, 'boolean'), array: first(ARRAYS, 'array'), object: first(OBJECTS, 'object') };
  return Object.fromEntries(Object.entries(plan).filter(([, n]) => n !== undefined));
}

/** The object with its first boolean leaf flipped (depth first), or undefined when it has none. */
export function flipFirstBoolean(value: unknown, depth = 0): unknown {
  if (depth > 4 || !isState(value)) return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'boolean') return { ...value, [k]: !v };
    const inner = flipFirstBoolean(v, depth + 1);
    if (inner !== undefined) return { ...value, [k]: inner };
  }
  return undefined;
}

/** The carriers for one cell: a change of each kind from the check's state now, but for the properties the cell sends; `token` makes the name and tag its own. */
export function carriersFor(p: CarrierPlan, state: CheckState, token: string, exclude: string[]): CheckState {
  const out: CheckState = {};
  const free = (name: string | undefined): name is string => !!name && !exclude.includes(name);
  if (free(p.name)) out[p.name] = `contract-suite probe ${token}`;
  if (free(p.boolean)) out[p.boolean] = !(state[p.boolean] === true);
  if (free(p.array)) {
    const now = Array.isArray(state[p.array]) ? (state[p.array] as unknown[]) : [];
    out[p.array] = [...now, `contract-suite-${token}`];
  }
  if (free(p.object)) {
    // Only a change the current value shows to be valid: a flipped flag inside it. None: no object carrier.
    const flipped = flipFirstBoolean(state[p.object]);
    if (flipped !== undefined) out[p.object] = flipped;
  }
  return out;
}

/** The carrier kinds present in a body, for the report. */
export const carriedKinds = (plan: CarrierPlan, body: CheckState) =>
  (Object.entries(plan) as Array<[CarrierKind, string]>).filter(([, n]) => n in body).map(([k, n]) => `${k} (${n})`);
