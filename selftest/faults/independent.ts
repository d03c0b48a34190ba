// The independent faults (selftest/faults/catalogue/independent-faults.ts), written without reading the suite: for
// each, the clause(s) a correct suite must fail on with it injected, and the suite file(s) of that
// family. Where two clauses are listed, the one observation breaks both (e.g. a 429 body that is not
// ERR-2 is also an RL-3 failure). A refusal's body is judged by the ERR clauses alone: a 403 whose
// statusCode is not 403 is still a rejection of AUTH-6 (a 4xx), and fails ERR-4 only.
import { TEST_FILES } from '../../support/run/test-files';

export interface IndependentFault {
  fault: string;
  clauses: string[];
  files: string[];
  env?: Record<string, string>;
}

const SPEC = TEST_FILES.spec;
const AUTH = TEST_FILES.auth;
const RT = TEST_FILES.runtime;
const CU = TEST_FILES.checkUpdate;
const RL = TEST_FILES.rateLimit;
const BURST = TEST_FILES.burst;
const AG = TEST_FILES.agent;
const ERR = TEST_FILES.errors;
const REQUESTS = TEST_FILES.requests;

export const INDEPENDENT_FAULTS: IndependentFault[] = [
  // SPEC
  { fault: 'ind-spec-update-basic-auth', clauses: ['SPEC-3'], files: [SPEC] },
  { fault: 'ind-spec-query-string', clauses: ['SPEC-5'], files: [SPEC] },
  // AUTH
  { fault: 'ind-auth-bare-key', clauses: ['AUTH-2'], files: [AUTH] },
  { fault: 'ind-auth-key-suffix', clauses: ['AUTH-3'], files: [AUTH] },
  { fault: 'ind-auth-checks-account-optional', clauses: ['AUTH-5'], files: [AUTH, CU] },
  { fault: 'ind-auth-403-echo-key', clauses: ['AUTH-7'], files: [AUTH] },
  // RT
  { fault: 'ind-rt-non-ascii-500', clauses: ['RT-9'], files: [RT] },
  { fault: 'ind-rt-eol-day-first', clauses: ['RT-6'], files: [RT] },
  { fault: 'ind-rt-removed-no-deps', clauses: ['RT-7'], files: [RT] },
  // ERR
  { fault: 'ind-err-401-text-plain', clauses: ['ERR-3'], files: [AUTH] },
  { fault: 'ind-err-403-status-401', clauses: ['ERR-4'], files: [AUTH] },
  { fault: 'ind-err-check-404-notfound', clauses: ['ERR-1'], files: [CU] },
  { fault: 'ind-err-custom-429-wording', clauses: ['ERR-2', 'RL-3'], files: [BURST, RL] },
  // RL
  { fault: 'ind-rl-window-ms', clauses: ['RL-2'], files: [BURST, RL] },
  { fault: 'ind-rl-custom-off-by-one', clauses: ['RL-4'], files: [RL, BURST] },
  { fault: 'ind-rl-retry-after-ms', clauses: ['RL-6'], files: [BURST, RL] },
  // CU
  { fault: 'ind-cu-description-bytes', clauses: ['CU-2'], files: [CU] },
  { fault: 'ind-cu-location-pattern', clauses: ['CU-4'], files: [CU] },
  { fault: 'ind-cu-checktype-case', clauses: ['CU-6'], files: [CU] },
  { fault: 'ind-cu-flags-applied-early', clauses: ['CU-7'], files: [CU] },
  // FO
  { fault: 'ind-fo-stale-offset', clauses: ['FO-2', 'FO-3'], files: [CU] },
  { fault: 'ind-fo-type-change-at-zero', clauses: ['FO-5'], files: [CU] },
  { fault: 'ind-fo-null-offset', clauses: ['FO-4'], files: [CU] },
  // AG
  { fault: 'ind-agent-late-draining', clauses: ['AG-5'], files: [AG] },
  { fault: 'ind-agent-liveness-fails-before-exit', clauses: ['AG-5'], files: [AG] },
];

/** The sixth batch (ind6-*, selftest/faults/catalogue/independent-faults.ts INDEPENDENT_FAULTS_6), same shape. */
export const INDEPENDENT_FAULTS_6: IndependentFault[] = [
  // SPEC
  { fault: 'ind6-spec-429-apierror', clauses: ['SPEC-7'], files: [SPEC] },
  { fault: 'ind6-spec-id-number', clauses: ['SPEC-4'], files: [SPEC] },
  { fault: 'ind6-spec-eol-format-date', clauses: ['SPEC-9'], files: [RT, SPEC] },
  // AUTH
  { fault: 'ind6-auth-key-query-param', clauses: ['AUTH-1'], files: [AUTH] },
  { fault: 'ind6-auth-guid-unanchored', clauses: ['AUTH-6'], files: [AUTH] },
  { fault: 'ind6-auth-key-case-insensitive', clauses: ['AUTH-3'], files: [AUTH] },
  { fault: 'ind6-auth-403-after-write', clauses: ['AUTH-6', 'CU-7'], files: [AUTH, CU] },
  // RT
  { fault: 'ind6-rt-id-numeric-parse', clauses: ['RT-9'], files: [RT] },
  { fault: 'ind6-rt-eol-leap', clauses: ['RT-6'], files: [RT] },
  { fault: 'ind6-rt-description-null', clauses: ['RT-8'], files: [RT] },
  // ERR
  { fault: 'ind6-err-415-text', clauses: ['ERR-3'], files: [ERR, CU] },
  { fault: 'ind6-err-413-status-400', clauses: ['ERR-4'], files: [ERR, CU] },
  { fault: 'ind6-err-404-message-null', clauses: ['ERR-1'], files: [ERR, RT] },
  // RL
  // Seen where a window end is observed: the recovery test, which runs by default with a window of 10 s or less.
  { fault: 'ind6-rl-429-extends-window', clauses: ['RL-5', 'RL-6'], files: [BURST, RL], env: { RATE_LIMIT_WINDOW_S: '10' } },
  { fault: 'ind6-rl-bucket-per-url', clauses: ['RL-2'], files: [BURST, RL] },
  { fault: 'ind6-rl-custom-prefix', clauses: ['RL-1'], files: [BURST, RL] },
  // CU
  { fault: 'ind6-cu-put-upserts', clauses: ['CU-8'], files: [CU] },
  { fault: 'ind6-cu-query-checked-after-write', clauses: ['CU-7'], files: [CU] },
  { fault: 'ind6-cu-location-case', clauses: ['CU-4'], files: [CU] },
  { fault: 'ind6-cu-removed-runtime-refused', clauses: ['CU-5', 'CU-1'], files: [CU] },
  // FO
  { fault: 'ind6-fo-sixty-high-rule', clauses: ['FO-2'], files: [CU] },
  { fault: 'ind6-fo-zero-range', clauses: ['FO-1'], files: [CU] },
  { fault: 'ind6-fo-old-frequency', clauses: ['FO-2', 'FO-3'], files: [CU] },
  // AG
  { fault: 'ind6-agent-ready-again-stopping', clauses: ['AG-5'], files: [AG] },
  { fault: 'ind6-agent-close-listener-first', clauses: ['AG-5'], files: [AG] },
];

/** The seventh batch (ind7-*, selftest/faults/catalogue/independent-faults.ts INDEPENDENT_FAULTS_7), same shape. */
export const INDEPENDENT_FAULTS_7: IndependentFault[] = [
  // SPEC
  { fault: 'ind7-spec-runtime-security-empty', clauses: ['SPEC-3'], files: [SPEC] },
  { fault: 'ind7-spec-nullable-type-array', clauses: ['SPEC-1'], files: [SPEC] },
  { fault: 'ind7-spec-429-attributes-string', clauses: ['SPEC-7', 'SPEC-9'], files: [SPEC, BURST, RL] },
  { fault: 'ind7-spec-offset-snake-case', clauses: ['SPEC-5'], files: [SPEC] },
  // AUTH
  { fault: 'ind7-auth-head-unauthenticated', clauses: ['AUTH-1'], files: [AUTH] },
  { fault: 'ind7-auth-nil-guid-default-account', clauses: ['AUTH-6'], files: [AUTH] },
  { fault: 'ind7-auth-429-attributes-key', clauses: ['AUTH-7'], files: [AUTH, BURST, RL] },
  // RT
  { fault: 'ind7-rt-cache-miss-404', clauses: ['RT-1'], files: [RT] },
  { fault: 'ind7-rt-multistep-omitempty', clauses: ['RT-4', 'SPEC-9'], files: [RT, SPEC] },
  { fault: 'ind7-rt-eol-locale-unpadded', clauses: ['RT-6'], files: [RT] },
  { fault: 'ind7-rt-malformed-id-400', clauses: ['RT-9'], files: [RT] },
  // ERR
  { fault: 'ind7-err-404-template-after-401', clauses: ['ERR-1', 'ERR-4'], files: [ERR, AUTH, RT] },
  { fault: 'ind7-err-foreign-check-403-body-404', clauses: ['ERR-4'], files: [ERR, AUTH, CU] },
  // RL
  // Only a later window shows it: counted again after the recovery test, which runs by default with a short window.
  { fault: 'ind7-rl-reset-counts-twice', clauses: ['RL-1'], files: [BURST, RL], env: { RATE_LIMIT_WINDOW_S: '10' } },
  { fault: 'ind7-rl-counter-lost-update', clauses: ['RL-2'], files: [BURST, RL] },
  { fault: 'ind7-rl-retry-after-epoch-date', clauses: ['RL-6'], files: [BURST, RL] },
  // CU
  { fault: 'ind7-cu-stale-read-cache', clauses: ['CU-1'], files: [CU] },
  { fault: 'ind7-cu-grouporder-zero-refused', clauses: ['CU-3'], files: [CU] },
  { fault: 'ind7-cu-runtime-range-check', clauses: ['CU-5'], files: [CU] },
  { fault: 'ind7-cu-rollback-to-seed', clauses: ['CU-7'], files: [CU] },
  { fault: 'ind7-cu-cross-account-id', clauses: ['CU-8'], files: [CU, AUTH] },
  // FO
  { fault: 'ind7-fo-zero-falsy', clauses: ['FO-1', 'FO-5'], files: [CU] },
  { fault: 'ind7-fo-browser-range-unchecked', clauses: ['FO-2', 'FO-3'], files: [CU] },
  // AG
  { fault: 'ind7-agent-liveness-before-first-heartbeat', clauses: ['AG-2'], files: [AG] },
  { fault: 'ind7-agent-health-legacy-port', clauses: ['AG-3', 'AG-4'], files: [AG] },
];

/** The eighth batch (ind8-*, selftest/faults/catalogue/independent-faults.ts INDEPENDENT_FAULTS_8), same shape. */
export const INDEPENDENT_FAULTS_8: IndependentFault[] = [
  // SPEC
  { fault: 'ind8-spec-runtime-path-trailing-slash', clauses: ['SPEC-4'], files: [SPEC] },
  { fault: 'ind8-spec-404-status-enum-quoted', clauses: ['SPEC-7', 'SPEC-9'], files: [SPEC, RT, ERR] },
  { fault: 'ind8-spec-runtime-stage-required', clauses: ['SPEC-6'], files: [SPEC] },
  // AUTH
  { fault: 'ind8-auth-account-remembered', clauses: ['AUTH-5'], files: [AUTH] },
  { fault: 'ind8-auth-account-exists-only', clauses: ['AUTH-6'], files: [AUTH] },
  { fault: 'ind8-auth-guid-uppercase-refused', clauses: ['AUTH-4'], files: [AUTH] },
  // RT
  { fault: 'ind8-rt-json-suffix-stripped', clauses: ['RT-9'], files: [RT] },
  { fault: 'ind8-rt-cache-key-year', clauses: ['RT-2'], files: [RT] },
  { fault: 'ind8-rt-stage-past-eol-computed', clauses: ['RT-5', 'SPEC-9'], files: [RT, SPEC] },
  { fault: 'ind8-rt-deps-npm-ls-shape', clauses: ['RT-7', 'SPEC-9'], files: [RT, SPEC] },
  // ERR
  { fault: 'ind8-err-400-duplicate-status-key', clauses: ['ERR-4'], files: [ERR, CU] },
  // Found by the request lens, which tries the methods no route declares on the check's path too.
  { fault: 'ind8-err-405-empty-body', clauses: ['ERR-3'], files: [ERR, REQUESTS] },
  { fault: 'ind8-err-429-attributes-entries', clauses: ['ERR-2', 'RL-3', 'SPEC-9'], files: [SPEC, BURST, RL] },
  // RL
  { fault: 'ind8-rl-429-headers-next-window', clauses: ['RL-6'], files: [BURST, RL] },
  { fault: 'ind8-rl-bucket-raw-authorization', clauses: ['RL-2'], files: [BURST, RL] },
  { fault: 'ind8-rl-ban-403-after-refusals', clauses: ['RL-2'], files: [BURST, RL] },
  // CU
  { fault: 'ind8-cu-deep-merge-arrays', clauses: ['CU-1'], files: [CU] },
  { fault: 'ind8-cu-concurrent-lost-update', clauses: ['CU-1'], files: [CU] },
  { fault: 'ind8-cu-description-null-500', clauses: ['CU-2'], files: [CU] },
  { fault: 'ind8-cu-locations-contains', clauses: ['CU-4'], files: [CU] },
  // FO
  { fault: 'ind8-fo-offset-before-frequency-key', clauses: ['FO-1', 'FO-2', 'FO-3'], files: [CU] },
  { fault: 'ind8-fo-zero-denylist-browser', clauses: ['FO-5'], files: [CU] },
  { fault: 'ind8-fo-zero-switch-fallthrough', clauses: ['FO-1'], files: [CU] },
  // AG
  { fault: 'ind8-agent-liveness-after-error', clauses: ['AG-2'], files: [AG] },
  { fault: 'ind8-agent-health-accept-json', clauses: ['AG-3'], files: [AG] },
];

/** The ninth batch (ind9-*, selftest/faults/catalogue/independent-faults.ts INDEPENDENT_FAULTS_9), same shape. */
export const INDEPENDENT_FAULTS_9: IndependentFault[] = [
  // SPEC
  { fault: 'ind9-spec-utf8-bom', clauses: ['SPEC-1'], files: [SPEC] },
  { fault: 'ind9-spec-account-param-in-query', clauses: ['SPEC-4'], files: [SPEC] },
  { fault: 'ind9-spec-404-closed-no-message', clauses: ['SPEC-7', 'SPEC-9'], files: [SPEC, RT, ERR] },
  { fault: 'ind9-spec-security-name-mismatch', clauses: ['SPEC-3'], files: [SPEC] },
  // AUTH
  { fault: 'ind9-auth-login-redirect', clauses: ['AUTH-1'], files: [AUTH] },
  { fault: 'ind9-auth-malformed-key-fail-open', clauses: ['AUTH-3'], files: [AUTH] },
  { fault: 'ind9-auth-update-legacy-basic', clauses: ['AUTH-2'], files: [AUTH, CU] },
  // RT
  { fault: 'ind9-rt-eol-zero-based-month', clauses: ['RT-6'], files: [RT] },
  { fault: 'ind9-rt-deps-double-encoded', clauses: ['RT-7', 'SPEC-9'], files: [RT, SPEC] },
  { fault: 'ind9-rt-lookup-plain-object', clauses: ['RT-9'], files: [RT] },
  { fault: 'ind9-rt-singleflight-route-key', clauses: ['RT-2'], files: [RT] },
  // ERR
  { fault: 'ind9-err-404-nbsp', clauses: ['ERR-1', 'SPEC-9'], files: [ERR, RT, SPEC] },
  { fault: 'ind9-err-two-problems-status', clauses: ['ERR-4'], files: [ERR, CU] },
  // RL
  { fault: 'ind9-rl-checks-counted-twice', clauses: ['RL-1'], files: [BURST, RL] },
  { fault: 'ind9-rl-cache-before-limiter', clauses: ['RL-2'], files: [BURST, RL] },
  { fault: 'ind9-rl-reset-wall-clock-minute', clauses: ['RL-6'], files: [BURST, RL] },
  // CU
  { fault: 'ind9-cu-utf8mb3-astral', clauses: ['CU-1'], files: [CU] },
  { fault: 'ind9-cu-browser-description-unbounded', clauses: ['CU-2'], files: [CU] },
  { fault: 'ind9-cu-shallow-copy-arrays', clauses: ['CU-7'], files: [CU] },
  { fault: 'ind9-cu-runtime-no-downgrade', clauses: ['CU-5', 'CU-9'], files: [CU] },
  // FO
  { fault: 'ind9-fo-refused-frequency-remembered', clauses: ['FO-2'], files: [CU] },
  { fault: 'ind9-fo-hourly-in-hours', clauses: ['FO-3'], files: [CU] },
  { fault: 'ind9-fo-unchanged-loose-equality', clauses: ['FO-4'], files: [CU] },
  // AG
  { fault: 'ind9-agent-port-four-digits', clauses: ['AG-4'], files: [AG] },
  { fault: 'ind9-agent-probe-throttle', clauses: ['AG-5', 'AG-2'], files: [AG] },
];
