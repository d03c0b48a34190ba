/** Faults of the foundation families (SPEC, AUTH, RT, ERR, AG) and where the suite must catch them. */
import type { FaultExpectation } from './types';
import { TEST_FILES } from '../../support/run/test-files';

const SPEC = [TEST_FILES.spec];
const AUTH = [TEST_FILES.auth];
const RT = [TEST_FILES.runtime];
const AGENT = [TEST_FILES.agent];

export const FOUNDATION_FAULTS: FaultExpectation[] = [
  { fault: 'spec-missing', clauses: ['SPEC-1'], files: SPEC },
  { fault: 'spec-invalid', clauses: ['SPEC-1'], files: SPEC },
  { fault: 'spec-unversioned', clauses: ['SPEC-2'], files: SPEC },
  { fault: 'spec-bom', clauses: ['SPEC-1'], files: SPEC },
  // Found because the suite asks as real clients do (Accept-Encoding: gzip, deflate, br).
  { fault: 'spec-gzip-unlabelled', clauses: ['SPEC-1'], files: SPEC },
  { fault: 'spec-trailing-slash', clauses: ['SPEC-4', 'SPEC-5'], files: SPEC },
  { fault: 'spec-no-bearer', clauses: ['SPEC-3'], files: SPEC },
  { fault: 'spec-runtime-no-404', clauses: ['SPEC-4', 'SPEC-7'], files: SPEC },
  { fault: 'spec-not-deprecated', clauses: ['SPEC-5'], files: SPEC },
  { fault: 'spec-runtime-optional-node', clauses: ['SPEC-6'], files: SPEC },
  { fault: 'spec-stage-enum', clauses: ['SPEC-6'], files: SPEC },
  { fault: 'spec-429-schema', clauses: ['SPEC-7'], files: SPEC },
  // The spec's media type of a response, not only its schema: SPEC-9 wherever a 404 is provoked.
  { fault: 'spec-404-problem-json', clauses: ['SPEC-9'], files: [TEST_FILES.spec, TEST_FILES.runtime] },
  { fault: 'swagger-newer', clauses: ['SPEC-8'], files: SPEC },

  { fault: 'auth-no-key-accepted', clauses: ['AUTH-1'], files: AUTH },
  { fault: 'auth-login-redirect', clauses: ['AUTH-1'], files: AUTH },
  { fault: 'auth-any-scheme', clauses: ['AUTH-2'], files: AUTH },
  { fault: 'auth-any-key', clauses: ['AUTH-3'], files: AUTH },
  { fault: 'auth-wrong-account-header', clauses: ['AUTH-4'], files: AUTH },
  { fault: 'auth-no-account-check', clauses: ['AUTH-5'], files: AUTH },
  { fault: 'auth-account-not-guid', clauses: ['AUTH-6'], files: AUTH },
  { fault: 'auth-other-account', clauses: ['AUTH-6'], files: AUTH },
  { fault: 'auth-echo-key', clauses: ['AUTH-7'], files: AUTH },
  // Found by the one-part-changed operator: a structured value changed one part at a time.
  { fault: 'auth-key-secret-part', clauses: ['AUTH-3'], files: AUTH },
  { fault: 'auth-account-first-group', clauses: ['AUTH-6'], files: AUTH },
  // Found by the near-miss catalogue applied to the account GUID.
  { fault: 'auth-account-hex-only', clauses: ['AUTH-6'], files: AUTH },
  // Found by a client that keeps cookies: every probe the target must refuse carries the cookies it set.
  { fault: 'auth-account-from-cookie', clauses: ['AUTH-5'], files: AUTH },

  { fault: 'rt-missing-version', clauses: ['RT-1'], files: RT },
  { fault: 'rt-content-type-text', clauses: ['RT-1'], files: RT },
  // Found by reading each runtime twice: a runtime is fixed.
  { fault: 'rt-view-changes-row', clauses: ['RT-1'], files: RT },
  // Found by the ids whose percent-encoding is well formed but no UTF-8.
  { fault: 'rt-undecodable-id-400', clauses: ['RT-9'], files: RT },
  { fault: 'rt-accept-strict', clauses: ['RT-1'], files: RT },
  { fault: 'rt-name-mismatch', clauses: ['RT-2'], files: RT },
  { fault: 'rt-node-no-v', clauses: ['RT-3', 'SPEC-9'], files: RT },
  { fault: 'rt-multistep-string', clauses: ['RT-4'], files: RT },
  { fault: 'rt-stage-lowercase', clauses: ['RT-5'], files: RT },
  { fault: 'rt-eol-iso', clauses: ['RT-6'], files: RT },
  { fault: 'rt-eol-invalid-date', clauses: ['RT-6'], files: RT },
  { fault: 'rt-deps-empty', clauses: ['RT-7'], files: RT },
  { fault: 'rt-deps-number', clauses: ['RT-7'], files: RT },
  { fault: 'rt-description-number', clauses: ['RT-8'], files: RT },
  { fault: 'rt-encoded-slash-500', clauses: ['RT-9'], files: RT },
  { fault: 'rt-long-id-500', clauses: ['RT-9'], files: RT },
  { fault: 'rt-prefix-match', clauses: ['RT-9'], files: RT },
  { fault: 'rt-concurrent-last-wins', clauses: ['RT-2'], files: RT },

  { fault: 'err-two-problems-404-body', clauses: ['ERR-4'], files: [TEST_FILES.errors] },
  { fault: 'err-404-string-status', clauses: ['ERR-1', 'ERR-4'], files: RT },
  { fault: 'err-404-wording', clauses: ['ERR-1'], files: RT },
  { fault: 'err-text-content-type', clauses: ['ERR-3'], files: [...RT, ...AUTH] },
  { fault: 'err-status-mismatch', clauses: ['ERR-4'], files: AUTH },

  { fault: 'agent-ready-503', clauses: ['AG-1'], files: AGENT },
  { fault: 'agent-liveness-500', clauses: ['AG-2'], files: AGENT },
  { fault: 'agent-liveness-after-error', clauses: ['AG-2'], files: AGENT },
  { fault: 'agent-no-health', clauses: ['AG-3'], files: AGENT },
  { fault: 'agent-health-legacy-port', clauses: ['AG-3', 'AG-4'], files: AGENT },
  { fault: 'agent-ignore-port', clauses: ['AG-4'], files: AGENT },
  // Found by a first-sight fault (a port of the dynamic range ignored): the agent is given a high port.
  { fault: 'agent-port-int16', clauses: ['AG-4'], files: AGENT },
  { fault: 'agent-default-port', clauses: ['AG-4'], files: AGENT },
  { fault: 'agent-ready-during-shutdown', clauses: ['AG-5'], files: AGENT },
  { fault: 'agent-liveness-dies-on-shutdown', clauses: ['AG-5'], files: AGENT },
  // The agent's whole life, watched from its start to its exit (support/agent/life-judge.ts).
  { fault: 'agent-liveness-first-503', clauses: ['AG-2'], files: AGENT },
  { fault: 'agent-ready-starting-500', clauses: ['AG-1'], files: AGENT },
  { fault: 'agent-ready-flap', clauses: ['AG-1'], files: AGENT },
  { fault: 'agent-health-500-steady', clauses: ['AG-3'], files: AGENT },
  { fault: 'agent-listener-gap', clauses: ['AG-1', 'AG-2', 'AG-3'], files: AGENT },
  { fault: 'agent-close-before-exit', clauses: ['AG-2', 'AG-3', 'AG-5'], files: AGENT },
];
