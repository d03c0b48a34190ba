/**
 * The clause catalogue: every testable rule of the API document, by id, written from the document's facts (the entries
 * are in clause-text.ts, docs/clauses.md is written from them); tests annotate themselves with these ids and the contract
 * matrix has one row per entry here, covered or not.
 */
import { clauseCatalogue, FAMILIES } from './clause-text';
import * as documentFacts from './facts';

export const CLAUSES = clauseCatalogue(documentFacts);

export type ClauseId = keyof typeof CLAUSES;

export const CLAUSE_IDS = Object.keys(CLAUSES) as ClauseId[];

export const familyOf = (id: ClauseId) => id.slice(0, id.indexOf('-')) as Family;

export type Family = keyof typeof FAMILIES;

/**
 * The Playwright tag of each family, named after its test file (tests/<family>.spec.ts; auth's is credentials.spec.ts):
 * FO's clauses are judged by the check update's tests. `--grep` ignores case, so `@auth` and `@spec` also match the clause
 * tags `@AUTH-…` and `@SPEC-…`: `--grep "@spec(?!-)"` selects the family alone.
 */
export const FAMILY_TAGS = {
  SPEC: '@spec',
  AUTH: '@auth',
  RT: '@runtime',
  ERR: '@errors',
  RL: '@rate-limit',
  CU: '@check-update',
  FO: '@check-update',
  AG: '@agent',
} as const satisfies Record<Family, string>;

/** A test's tags, from the clauses it declares: its family's (that of its first clause), then `@<clause id>` for each. */
export const clauseTags = (ids: readonly ClauseId[]): string[] => [...(ids.length ? [FAMILY_TAGS[familyOf(ids[0])]] : []), ...ids.map((id) => `@${id}`)];

export function isClauseId(value: string): value is ClauseId {
  return Object.hasOwn(CLAUSES, value);
}
