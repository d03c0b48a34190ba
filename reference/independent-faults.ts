// The independent faults: bugs written by someone who knows the API document and its clauses but not
// the suite. Each breaks one documented rule away from the obvious spot (another route, another check
// type, a value of another shape, another moment). Merged into FAULTS (faults.ts), so MOCK_FAULT and
// --list-faults know them; the hooks are marked with the fault name at their code sites.

export const INDEPENDENT_FAULTS = {
  // SPEC
  'ind-spec-update-basic-auth': 'spec: the check update operation overrides security with an HTTP basic scheme',
  'ind-spec-query-string': 'spec: the autoAssignAlerts query parameter is typed string (enum "true"/"false"), not boolean',
  // AUTH
  'ind-auth-bare-key': 'the bare key (no scheme) is accepted: the optional "Bearer " prefix is stripped',
  'ind-auth-key-suffix': 'a known key followed by extra characters is accepted (prefix comparison)',
  'ind-auth-checks-account-optional': "GET/PUT /v1/checks/:id without the account header use the key's account",
  'ind-auth-403-echo-key': "the 403 for another account's GUID quotes the API key in its message",
  // RT
  'ind-rt-non-ascii-500': 'runtime ids with non-ASCII characters answer 500',
  'ind-rt-eol-day-first': 'runtimeEndOfLife of 2023.09 is written day first: "31/12/2026"',
  'ind-rt-removed-no-deps': 'REMOVED runtimes (2023.02, 2022.10) have dependencies {}',
  // ERR
  'ind-err-401-text-plain': '401 bodies are JSON text served as text/plain',
  'ind-err-403-status-401': '403 bodies say statusCode 401',
  'ind-err-check-404-notfound': '404 for an unknown check id says error "NotFound"',
  'ind-err-custom-429-wording': '429 of the custom-limited GET /v1/runtimes says error "Too many requests"',
  // RL
  'ind-rl-window-ms': 'global window taken as milliseconds (60 ms instead of 60 s)',
  'ind-rl-custom-off-by-one': 'GET /v1/runtimes serves 21 requests per 10 s instead of 20',
  'ind-rl-retry-after-ms': 'Retry-After of a 429 is in milliseconds',
  // CU
  'ind-cu-description-bytes': 'description length counted in UTF-8 bytes: 500 non-ASCII characters rejected',
  'ind-cu-location-pattern': 'locations checked by pattern: look-alikes such as us-east-3 accepted',
  'ind-cu-checktype-case': 'checkType upper-cased before validation: "api", "browser" accepted',
  'ind-cu-flags-applied-early': 'activated/muted of a rejected update are saved anyway',
  // FO
  'ind-fo-stale-offset': 'frequency > 0 sent without frequencyOffset is not checked against the stored offset',
  'ind-fo-type-change-at-zero': 'checkType sent without frequency is not checked against a stored frequency 0',
  'ind-fo-null-offset': 'frequencyOffset null accepted (treated as unchanged)',
  // AG (agent)
  'ind-agent-late-draining': 'readiness stays 200 for the first 400 ms after SIGTERM',
  'ind-agent-liveness-fails-before-exit': 'liveness answers 503 for the last 400 ms before exit',
} as const satisfies Record<string, string>;

/** How long the agent faults are wrong: 400 ms, but at most half of the drain. */
export const agentFaultWindowMs = (drainMs: number): number => Math.min(400, Math.floor(drainMs / 2));
