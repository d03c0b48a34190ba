/**
 * AUTH faults generated from the AUTH table: for each place the reference names and each rule tried
 * there, the rule left unenforced (`auth-skip:<place>:<rule>`, too loose: the rule's clause fails there,
 * on the rule's first probe), the valid request refused (`auth-strict:<place>`, too strict: AUTH-4
 * fails), and for each probe that offers the key outside the Authorization header, the key taken from
 * each place it offers it (`auth-alt:<where>:<name>`: AUTH-1 fails on that probe), and each other method a
 * probe is sent with let through without credentials (`auth-method:<method>`: AUTH-1 fails on that probe).
 * The collections beside the operations (`GET /v1/runtimes`) have no place of their own in the
 * reference's fault vocabulary; `any` covers them, with every other place.
 */
import { AUTH_PROBES, authCases, RULE_CLAUSE, type AuthPlace, type AuthRule } from '../../../support/auth/table';
import { VALID_CLASS } from '../../../support/auth/send';
import type { GeneratedFault } from '../types';
import { TEST_FILES } from '../../../support/run/test-files';

const FILES = [TEST_FILES.auth];

/** The reference's name of each AUTH place (MOCK_FAULT's <place>); undefined: only `any` reaches it. */
export const FAULT_PLACE: Readonly<Record<AuthPlace, string | undefined>> = {
  runtime: 'runtime',
  'check-read': 'check-read',
  'check-update': 'check-update',
  collection: undefined,
};

/**
 * The value class a rule's failure is stamped with: its first probe that must be refused and keeps
 * the Authorization header's role (a key offered elsewhere is auth-alt's, below).
 */
const coreClass = (rule: AuthRule) => AUTH_PROBES.find((p) => p.rule === rule && p.expect === 'rejected' && !p.offers && !p.method)!.id;

function rulesAt(place: AuthPlace): AuthRule[] {
  return [
    ...new Set(
      authCases()
        .filter((c) => c.place === place && c.probe?.expect === 'rejected')
        .map((c) => c.probe!.rule),
    ),
  ];
}

export const AUTH_GENERATED: GeneratedFault[] = [
  ...(Object.entries(FAULT_PLACE) as Array<[AuthPlace, string | undefined]>).flatMap(([place, faultPlace]): GeneratedFault[] =>
    faultPlace === undefined
      ? []
      : [
          ...rulesAt(place).map((rule): GeneratedFault => ({
            fault: `auth-skip:${faultPlace}:${rule}`,
            clause: RULE_CLAUSE[rule],
            place,
            valueClass: coreClass(rule),
            direction: 'loose',
            files: FILES,
          })),
          { fault: `auth-strict:${faultPlace}`, clause: 'AUTH-4', place, valueClass: VALID_CLASS, direction: 'strict', files: FILES },
        ],
  ),
  // Every place at once, the collections included (the failure's place: any of them).
  ...(Object.keys(RULE_CLAUSE) as AuthRule[]).map((rule): GeneratedFault => ({
    fault: `auth-skip:any:${rule}`,
    clause: RULE_CLAUSE[rule],
    valueClass: coreClass(rule),
    direction: 'loose',
    files: FILES,
  })),
  // auth-strict:any is left out: it refuses /openapi.json too, so the run has no spec: SPEC-1 fails and nothing else runs.
  // Each other method a probe is sent with let through unauthenticated (on every route).
  ...AUTH_PROBES.filter((p) => p.method).map((p): GeneratedFault => ({
    fault: `auth-method:${p.method}`,
    clause: p.clause,
    valueClass: p.id,
    direction: 'loose',
    files: FILES,
  })),
  // The key taken from each place a probe offers it in (the reference has one rule for every route).
  ...AUTH_PROBES.flatMap((p) =>
    (p.offers?.names ?? []).map((name): GeneratedFault => ({
      fault: `auth-alt:${p.offers!.where}:${name}`,
      clause: p.clause,
      valueClass: p.id,
      direction: 'loose',
      files: FILES,
    })),
  ),
];
