/**
 * The update body's vocabulary as the target's spec gives it: the property of each thing the document describes by meaning,
 * and the values the spec enumerates; where the spec differs from the document, a finding in the report, never a failure.
 */
import { CHECK_TYPES, DESCRIPTION_MAX, KNOWN_FREQUENCIES, LOCATIONS, RUNTIME_VERSIONS } from '../document/facts';
import { admits, admitsNull, enumOf, jsonBodySchema, schemaProperties, type Target } from '../spec/target';
import type { Verdict } from '../checks/verdict';
import { show } from '../checks/failure';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The body's properties the tests change, by meaning, named after the published spec's, with the document's words for them and
 * what the document says of them that a spec can state too: its values, its length, its lower bound.
 */
const ROLES: Readonly<Record<BodyRole, { meaning: string; values?: readonly unknown[]; maxLength?: number; minimum?: number }>> = {
  name: { meaning: 'name of the check' },
  description: { meaning: `description, at most ${DESCRIPTION_MAX} characters`, maxLength: DESCRIPTION_MAX },
  groupOrder: { meaning: 'group order, integer >= 0 or null', minimum: 0 },
  locations: { meaning: 'data center locations', values: LOCATIONS },
  runtimeId: { meaning: 'runtime version', values: RUNTIME_VERSIONS },
  checkType: { meaning: 'check type', values: CHECK_TYPES },
  frequency: { meaning: 'frequency in minutes' },
  frequencyOffset: { meaning: 'frequencyOffset', minimum: 1 },
};

export type BodyRole = 'name' | 'description' | 'groupOrder' | 'locations' | 'runtimeId' | 'checkType' | 'frequency' | 'frequencyOffset';

/** The published spec's names: the first choice wherever the target's body has them. */
export const PUBLISHED_NAMES = Object.fromEntries(Object.keys(ROLES).map((r) => [r, r])) as Readonly<Record<BodyRole, string>>;

/** The body property name of each role; undefined where the schema has none that fits. */
export type UpdateVocabulary = Record<BodyRole, string | undefined>;

/** Whether a schema admits a type, by its type or by its shape (items: an array; properties: an object). */
export const shapedAs = (schema: Json, t: 'number' | 'boolean' | 'array' | 'object' | 'string') =>
  admits(schema, t) || (t === 'array' && schema?.items !== undefined) || (t === 'object' && schema?.properties !== undefined);
const isArray = (schema: Json) => shapedAs(schema, 'array');

/** How many of `wanted` a schema's own enum (not its items') lists. */
const overlap = (values: unknown[] | undefined, wanted: readonly unknown[]) => (values ? wanted.filter((w) => values.includes(w)).length : 0);

/** Each role's property in the body schema: the published name, else the best fit by meaning (enum values, name and type), each property one role at most. */
export function resolveVocabulary(bodySchema: Json): UpdateVocabulary {
  const props = schemaProperties(bodySchema);
  const names = Object.keys(props);
  const taken = new Set<string>();
  const v = {} as UpdateVocabulary;
  const choose = (role: BodyRole, fits: (name: string, schema: Json) => number) => {
    const free = names.filter((n) => !taken.has(n));
    // The published name, else the best fit (score > 0); ties go to the schema's order.
    const scores = free.map((n) => (n === PUBLISHED_NAMES[role] ? Infinity : fits(n, props[n])));
    const best = Math.max(0, ...scores);
    v[role] = best > 0 ? free[scores.indexOf(best)] : undefined;
    if (v[role]) taken.add(v[role]!);
  };
  // The document names this one; the check update operation is found by it (findUpdateOp).
  choose('frequencyOffset', () => 0);
  // By enum first: those are the least ambiguous. "Contains" is read as "lists most of": a spec that
  // lacks a documented value still names the property (the lack is a finding of its own).
  const most = (n: number, of: number) => (n * 2 > of ? n : 0);
  choose('locations', (_, s) => (isArray(s) ? most(overlap(enumOf(s.items), LOCATIONS), LOCATIONS.length) : 0));
  choose('runtimeId', (_, s) => (isArray(s) ? 0 : most(overlap(enumOf(s), RUNTIME_VERSIONS), RUNTIME_VERSIONS.length)));
  choose('checkType', (_, s) => (isArray(s) ? 0 : most(overlap(enumOf(s), CHECK_TYPES), CHECK_TYPES.length)));
  choose('frequency', (n, s) => {
    if (isArray(s) || /offset/i.test(n)) return 0;
    const byEnum = most(overlap(enumOf(s), KNOWN_FREQUENCIES), KNOWN_FREQUENCIES.length);
    if (byEnum) return 100 + byEnum;
    return /^frequency$/i.test(n) && admits(s, 'integer') ? 1 : 0;
  });
  choose('description', (n, s) => {
    if (!admits(s, 'string')) return 0;
    if (/description/i.test(n)) return 2;
    return typeof s.maxLength === 'number' && Math.abs(s.maxLength - DESCRIPTION_MAX) <= 50 ? 1 : 0;
  });
  choose('groupOrder', (n, s) => (/order/i.test(n) && admits(s, 'number') ? 1 : 0));
  choose('name', (n, s) => (/name/i.test(n) && admits(s, 'string') ? 1 : 0));
  return v;
}

/** The vocabulary of the target's update body (every role undefined when the spec has no update). */
export const vocabularyOf = (target: Target): UpdateVocabulary => resolveVocabulary(jsonBodySchema(target.updateOp));

/** Why a test that sends these roles cannot run on the target's body (a property it lacks), if so. */
export function missingReason(v: UpdateVocabulary, roles: BodyRole[]): string | undefined {
  const missing = roles.filter((r) => !v[r]);
  if (!missing.length) return undefined;
  return `the update body in the target's spec has no property for ${missing.map((r) => `${r} (${ROLES[r].meaning})`).join(', ')}, by name or by meaning: the test cannot send it`;
}

const bodyProperty = (target: Target, name: string | undefined): Json =>
  name === undefined ? undefined : schemaProperties(jsonBodySchema(target.updateOp))[name];

/** How a list in the target's spec differs from the document's: "lacks a, b and adds c" ('' when it does not). */
function difference(listed: readonly unknown[], documented: readonly unknown[]): string {
  const lacks = documented.filter((v) => !listed.includes(v));
  const adds = listed.filter((v) => !documented.includes(v));
  return [lacks.length ? `lacks ${lacks.join(', ')}` : '', adds.length ? `adds ${adds.join(', ')}` : ''].filter(Boolean).join(' and ');
}

/** Where the target's spec says otherwise than the document about a property: notes, never failures. */
export function noteSpecFindings(verdict: Verdict, target: Target, role: BodyRole): void {
  const note = (text: string) => verdict.note('spec-finding', text);
  const property = vocabularyOf(target)[role];
  const { meaning: what, values, maxLength, minimum } = ROLES[role];
  if (property && property !== PUBLISHED_NAMES[role])
    note(`the target's spec names the ${what} "${property}" (the published spec: "${PUBLISHED_NAMES[role]}"); found by meaning`);
  const schema = bodyProperty(target, property);
  if (!schema) return note(`the update body in the target's spec has no property ${property ? `"${property}"` : 'that fits'} (${what})`);
  const listed = enumOf(schema);
  if (values && !listed) note(`the target's spec does not enumerate ${property}; the document lists ${values.length} values`);
  const differs = values && listed ? difference(listed, values) : '';
  if (differs) note(`${property}: the target's spec ${differs} compared with the document`);
  if (maxLength !== undefined && schema.maxLength !== undefined && schema.maxLength !== maxLength)
    note(`${role}: the target's spec allows ${schema.maxLength} characters; the document says at most ${maxLength}`);
  if (minimum !== undefined && (schema.type !== 'integer' || schema.minimum !== minimum))
    note(`${role} in the target's spec is ${show({ type: schema.type, minimum: schema.minimum })}; the document says integer >= ${minimum}`);
}

/** The spec's frequencies where it lists them, else the known set; a difference is noted. */
export function frequenciesToTest(verdict: Verdict, target: Target, property: string | undefined): number[] {
  const listed = enumOf(bodyProperty(target, property))?.filter((v): v is number => typeof v === 'number' && v >= 0);
  if (!listed) {
    verdict.note('spec-finding', `the target's spec does not enumerate ${property ?? 'frequency'}; the known set is used (${KNOWN_FREQUENCIES.join(', ')})`);
    return [...KNOWN_FREQUENCIES];
  }
  const differs = difference(listed, KNOWN_FREQUENCIES);
  if (differs) verdict.note('spec-finding', `frequency: the target's spec ${differs} compared with the known set; the spec's list is tested`);
  return [...listed].sort((a, b) => a - b);
}

/** Whether the update replaces the check (its body schema lists required properties): then each body carries the whole state. */
export function requiresFullBody(target: Target): boolean {
  const required = (schema: Json, depth = 0): boolean =>
    !!schema &&
    typeof schema === 'object' &&
    depth <= 5 &&
    ((Array.isArray(schema.required) && schema.required.length > 0) || (schema.allOf ?? []).some((p: Json) => required(p, depth + 1)));
  return required(jsonBodySchema(target.updateOp));
}

/** A schema that says nothing about the type (no type, no parts, no enum) admits every type. */
const unconstrained = (schema: Json) =>
  !schema ||
  typeof schema !== 'object' ||
  (schema.type === undefined && !schema.anyOf && !schema.oneOf && !schema.allOf && !schema.enum && !schema.items && !schema.properties);

/** What the target's update body schema says of a property where the document is silent (see value-rules.ts, Ruling); a type it does not constrain, it admits. */
export function specFactsOf(bodySchema: Json) {
  const props = schemaProperties(bodySchema);
  return {
    nullable: (p: string): boolean => admitsNull(props[p]),
    admits: (p: string, t: Parameters<typeof shapedAs>[1]): boolean => unconstrained(props[p]) || shapedAs(props[p], t),
    enumOf: (p: string): unknown[] | undefined => enumOf(props[p]),
  };
}

export type SpecFacts = ReturnType<typeof specFactsOf>;
