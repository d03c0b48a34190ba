/**
 * The check update's vocabulary as the target's spec gives it (frequencies, locations, runtime ids,
 * check types), compared with the document: a difference is a finding in the report, not a failure.
 */
import { KNOWN_FREQUENCIES } from './document';
import { enumOf, jsonBodySchema, schemaProperties, type Target } from './target';
import type { Verdict } from './verdict';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export const bodyProperty = (target: Target, name: string): Json => schemaProperties(jsonBodySchema(target.updateOp))[name];

export function noteFinding(verdict: Verdict, target: Target, property: string, documented: readonly unknown[] | undefined, what: string): void {
  const schema = bodyProperty(target, property);
  if (!schema) return verdict.note('spec-finding', `the update body in the target's spec has no property "${property}" (${what})`);
  if (!documented) return;
  const listed = enumOf(schema);
  if (!listed) return verdict.note('spec-finding', `the target's spec does not enumerate ${property}; the document lists ${documented.length} values`);
  const lacks = documented.filter((v) => !listed.includes(v));
  const adds = listed.filter((v) => !documented.includes(v));
  if (lacks.length || adds.length) {
    verdict.note('spec-finding', `${property}: the target's spec ${lacks.length ? `lacks ${lacks.join(', ')}` : ''}${lacks.length && adds.length ? ' and ' : ''}${adds.length ? `adds ${adds.join(', ')}` : ''} compared with the document`);
  }
}

/** The frequencies the spec enumerates, if it does. */
export function specFrequencies(target: Target): number[] | undefined {
  return enumOf(bodyProperty(target, 'frequency'))?.filter((v): v is number => typeof v === 'number' && v >= 0);
}

/** The spec's frequencies where it lists them, else the known set; a difference is noted. */
export function frequenciesToTest(verdict: Verdict, target: Target): number[] {
  const listed = specFrequencies(target);
  if (!listed) {
    verdict.note('spec-finding', `the target's spec does not enumerate frequency; the known set is used (${KNOWN_FREQUENCIES.join(', ')})`);
    return [...KNOWN_FREQUENCIES];
  }
  const adds = listed.filter((f) => !(KNOWN_FREQUENCIES as readonly number[]).includes(f));
  const lacks = KNOWN_FREQUENCIES.filter((f) => !listed.includes(f));
  if (adds.length || lacks.length) {
    verdict.note('spec-finding', `frequency: the target's spec ${adds.length ? `adds ${adds.join(', ')}` : ''}${adds.length && lacks.length ? ' and ' : ''}${lacks.length ? `lacks ${lacks.join(', ')}` : ''} compared with the known set; the spec's list is tested`);
  }
  return [...listed].sort((a, b) => a - b);
}
