/**
 * ERR faults generated from what the suite provokes: for each place the reference names, each error
 * status the suite's tables make it answer there, and each way of bending the body
 * (`errbody:<place>:<status>:<mutation>`), the clause that must fail.
 *
 * The document decides most: statusCode a number equal to the status (ERR-4), a JSON content type
 * (ERR-3), the 404 shape (ERR-1), no key echoed (AUTH-7). Where it is silent (the body of a 400, 401 or
 * 403) the target's spec decides: the reference declares those bodies as ApiError, which requires a
 * string `error` and a string `message`, so dropping one or making the message a number breaks
 * conformance to the spec (SPEC-9), not the probe's own clause (the request was still refused). Its
 * wording is free (any string): `wording` is generated for 404 only. `attributes-string` bends only 429 bodies (the rate-limit work's).
 */
import type { ClauseId } from '../../../support/document/clauses';
import { ERRORS } from '../../../reference/service/errors/catalogue';
import { ERROR_MUTATIONS, type BodyShape, type ErrorMutation } from '../catalogue/fault-kinds';
import { ERROR_CASES } from '../../../support/checks/error-cases';
import { REJECTIONS } from '../../../support/check-update/rejections';
import type { Target } from '../../../support/spec/target';
import type { GeneratedFault } from '../types';
import { referenceUpdate } from './check-update';
import { TEST_FILES } from '../../../support/run/test-files';

const AUTH = TEST_FILES.auth;
const RT = TEST_FILES.runtime;
const ERR = TEST_FILES.errors;

type Mutation = Exclude<ErrorMutation, 'attributes-string'>;

/**
 * What the suite provokes at each place, by the reference's status for it: the auth probes (missing or
 * bad credentials 401, a malformed account 400, another account 403), unknown ids (404) and, on the
 * update, bodies that are no JSON object (400) or not JSON at all by content type (415), and a body over
 * the size limit (413). A bent body fails only its ERR clause (or SPEC-9, AUTH-7): the clause of the
 * probe that provoked it (AUTH-*, RT-9) judges the status, which a bent body leaves as it was.
 */
interface Provoked {
  status: number;
  files: string[];
  /** The reference's spec declares a body schema for this status: a body that breaks it fails SPEC-9. */
  schema?: true;
}

const authStatuses = (): Provoked[] =>
  [ERRORS.AUTH_MISSING.status, ERRORS.ACCOUNT_NOT_GUID.status, ERRORS.ACCOUNT_FORBIDDEN.status].map((status) => ({ status, files: [AUTH], schema: true }));

export const PROVOKED: Readonly<Record<'runtime' | 'check-read' | 'check-update', Provoked[]>> = {
  runtime: [...authStatuses(), { status: ERRORS.RUNTIME_NOT_FOUND.status, files: [RT] }],
  'check-read': [...authStatuses(), { status: ERRORS.CHECK_NOT_FOUND.status, files: [ERR] }],
  'check-update': [
    ...authStatuses().map((p) => (p.status === ERRORS.INVALID_BODY.status ? { ...p, files: [AUTH, ERR] } : p)),
    { status: ERRORS.CHECK_NOT_FOUND.status, files: [ERR] },
    // Not declared by the reference's spec (spec drift): no schema, so only the document's rules apply.
    { status: 415, files: [ERR] },
    // A body over the size limit, sent by the check update chain's rejections (support/check-update/rejections.ts).
    { status: 413, files: [TEST_FILES.checkUpdate] },
  ],
};

/** The reference's error-body mutations; `attributes-string` bends only 429 bodies (generated/rate-limit.ts). */
const MUTATIONS = ERROR_MUTATIONS.filter((m): m is Mutation => m !== 'attributes-string');

/** The clause a bent body must fail, or undefined where neither the document nor the spec forbids it. */
export function clauseFor(mutation: Mutation, p: Provoked): ClauseId | undefined {
  switch (mutation) {
    case 'string-status':
    case 'status-mismatch':
    case 'no-status':
      return 'ERR-4';
    case 'text-type':
    case 'not-json':
    case 'html':
      return 'ERR-3';
    case 'echo-key':
      return 'AUTH-7';
    case 'wording':
      return p.status === 404 ? 'ERR-1' : undefined;
    case 'no-error':
    case 'message-number':
      return p.status === 404 ? 'ERR-1' : p.schema && 'SPEC-9';
  }
}

export const ERRORS_GENERATED: GeneratedFault[] = Object.entries(PROVOKED).flatMap(([place, provoked]) =>
  provoked.flatMap((p) =>
    MUTATIONS.flatMap((mutation): GeneratedFault[] => {
      const clause = clauseFor(mutation, p);
      return clause ? [{ fault: `errbody:${place}:${p.status}:${mutation}`, clause, place, direction: 'loose', files: p.files }] : [];
    }),
  ),
);

/** The reference's take-body shape for each update body of the error-case table that is no JSON object. */
const SHAPE_OF_CASE: Readonly<Record<string, BodyShape>> = {
  'not-json': 'not-json',
  'empty-body': 'empty',
  'array-body': 'array',
  'wrong-content-type': 'text',
};

/**
 * The same table the suite sends (support/checks/error-cases.ts), too loose at the status: each body
 * the suite must see refused, read as {} and answered 200 (`take-body:<shape>`). A case the document
 * and the reference's spec let a target take (its `mayBeTaken` answers for the reference) has no fault.
 */
function takenBodyFaults(): GeneratedFault[] {
  // The case reads only the update operation of the target (its body schema, whether it is required).
  const reference = { updateOp: { op: referenceUpdate().op } } as unknown as Target;
  return ERROR_CASES.filter((c) => c.place === 'check-update' && SHAPE_OF_CASE[c.id] && !c.mayBeTaken?.(reference)).map((c) => ({
    fault: `take-body:${SHAPE_OF_CASE[c.id]}`,
    clause: c.clause,
    place: c.place,
    valueClass: c.id,
    direction: 'loose',
    files: [ERR],
  }));
}
export const TAKEN_BODY_GENERATED: GeneratedFault[] = takenBodyFaults();

/** The reference's id shape of each check id of the error-case table that the account has not got. */
const SHAPE_OF_ID: Readonly<Record<string, 'guid' | 'other' | 'foreign'>> = { 'unknown-id': 'guid', 'malformed-id': 'other', 'foreign-check': 'foreign' };

/**
 * The same table's missing checks, found or failing: each id the account has not got (nobody created
 * it, or another account did), on each route the table asks it on, answered with a made-up check or the
 * other account's (200) or 500 (`unknown-check:<place>:<id-shape>:<answer>`). The update refused for
 * another account's credentials (the check update's rejections) is the other account's check on the update.
 */
export const UNKNOWN_CHECK_GENERATED: GeneratedFault[] = [
  ...ERROR_CASES.filter((c) => SHAPE_OF_ID[c.id]).flatMap((c) =>
    (['found', 'fail'] as const).map((answer): GeneratedFault => ({
      fault: `unknown-check:${c.place}:${SHAPE_OF_ID[c.id]}:${answer}`,
      clause: c.clause,
      place: c.place,
      valueClass: c.id,
      direction: 'loose',
      files: [ERR],
      // The table's update sends an invalid body, which a made-up check refuses rightly: the CU-8 test's valid body shows it.
      ...(c.place === 'check-update' && answer === 'found' ? { valueClass: 'unknown-id:well-formed', files: [TEST_FILES.checkUpdate] } : {}),
    })),
  ),
  ...REJECTIONS.filter((r) => r.id === 'foreign-account').map((r): GeneratedFault => ({
    fault: 'unknown-check:check-update:foreign:found',
    clause: r.clause,
    place: 'check-update',
    valueClass: `api:refused:${r.id}`,
    direction: 'loose',
    files: [TEST_FILES.checkUpdate],
  })),
];
