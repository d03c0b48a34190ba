/**
 * CU-7 whatever the cause, generated from the rejections the check update chain sends
 * (support/check-update/rejections.ts): for each rule a refused update breaks, the reference applying
 * the body before it refuses it (`apply-before:<rule>`), caught on CU-7 at the update, on that
 * rejection's value class, and on the rejection's own clause (AUTH-*) there too: a refusal that changed
 * something is no rejection of its rule either.
 */
import { CHECK_KINDS } from '../../../support/check-update/table';
import { CREDENTIAL_PROBES, REJECTIONS } from '../../../support/check-update/rejections';
import type { ApplyBeforeRule } from '../catalogue/fault-kinds';
import { TEST_FILES } from '../../../support/run/test-files';
import type { GeneratedFault } from '../types';

/** The reference's rule for each rejection the chain sends; a rejection without one has no fault of this kind. */
const RULE_OF: Readonly<Record<string, ApplyBeforeRule>> = {
  ...Object.fromEntries(CREDENTIAL_PROBES.map((p) => [p.id, p.rule])),
  'query-not-boolean': 'query',
};

export const REJECTIONS_GENERATED: GeneratedFault[] = REJECTIONS.filter((r) => RULE_OF[r.id]).map((r) => ({
  fault: `apply-before:${RULE_OF[r.id]}`,
  clause: 'CU-7',
  // Refused for a rule of its own and still changed: that rule's rejection is broken too.
  ...(r.clause !== 'CU-7' ? { also: [r.clause] } : {}),
  place: 'check-update',
  valueClass: `${CHECK_KINDS[0]}:refused:${r.id}`,
  direction: 'loose',
  files: [TEST_FILES.checkUpdate],
}));
