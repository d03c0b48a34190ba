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

// The sixth batch (ind6-*): same rule, each bug a slip a team could ship, hooks marked by name.
export const INDEPENDENT_FAULTS_6 = {
  // SPEC
  'ind6-spec-429-apierror': 'spec: the 429 of GET /v1/runtimes/{id} refers to the generic ApiError schema (error not fixed, message required)',
  'ind6-spec-id-number': 'spec: the id path parameter of GET /v1/runtimes/{id} is typed number (inferred from the example 2025.04)',
  'ind6-spec-eol-format-date': 'spec: Runtime.runtimeEndOfLife declared format "date" (ISO), while the service writes MM/DD/YYYY',
  // AUTH
  'ind6-auth-key-query-param': 'without an Authorization header, the key is taken from the query (api_key, apiKey, access_token, token, key)',
  'ind6-auth-guid-unanchored': 'the account header is searched for a GUID, not matched whole: "{<guid>}", "<guid>x", "urn:uuid:<guid>" accepted',
  'ind6-auth-key-case-insensitive': 'API keys compared case-insensitively: the upper-cased key is accepted',
  'ind6-auth-403-after-write': "PUT /v1/checks/:id with another account's GUID is answered 403 only after the update is stored",
  // RT
  'ind6-rt-id-numeric-parse': 'runtime ids parsed as year and month numbers: "2024.9" answers 200 with runtime 2024.09',
  'ind6-rt-eol-leap': 'runtimeEndOfLife of 2022.10 is "02/29/2026" (no such day)',
  'ind6-rt-description-null': 'description of 2026.04 is null',
  // ERR
  'ind6-err-415-text': '415 (body not sent as JSON) answered with a text/plain body',
  'ind6-err-413-status-400': '413 (body over 1 MB) carries statusCode 400 in its body',
  'ind6-err-404-message-null': '404 of an unknown runtime id carries message null',
  // RL
  'ind6-rl-429-extends-window': 'fixed window: each 429 restarts the window, while Retry-After / reset announce the old end',
  'ind6-rl-bucket-per-url': 'the global limit is counted per key and URL: 600 requests per path, not per key',
  'ind6-rl-custom-prefix': 'the 20 per 10 s limit of GET /v1/runtimes also applies to GET /v1/runtimes/:id (prefix match)',
  // CU
  'ind6-cu-put-upserts': 'PUT /v1/checks/:id on an unknown GUID creates the check (200) instead of 404',
  'ind6-cu-query-checked-after-write': 'an invalid autoAssignAlerts is refused (400) only after a valid body was stored',
  'ind6-cu-location-case': 'locations trimmed and lower-cased before validation: "EU-WEST-1", " eu-west-1" accepted',
  'ind6-cu-removed-runtime-refused': 'runtimeId of a REMOVED runtime (2023.02, 2022.10) refused, though the document accepts it',
  // FO
  'ind6-fo-sixty-high-rule': 'frequency 60 checked by the "above 60" rule: only offset 1 accepted',
  'ind6-fo-zero-range': 'frequency 0 accepts any offset from 10 to 30 (15, 25), not only 10, 20, 30',
  'ind6-fo-old-frequency': 'frequencyOffset checked against the stored frequency when the body changes both',
  // AG (agent)
  'ind6-agent-ready-again-stopping': 'readiness answers 200 again in the last 400 ms of the drain ("stopping" is not "draining")',
  'ind6-agent-close-listener-first': 'on SIGTERM the listener is closed at once: probes are refused during the drain instead of 503/200',
} as const satisfies Record<string, string>;

// The seventh batch (ind7-*): same rule; each bug tied to one route, method, check type, moment or
// representation of a value, or to state shared between requests. Hooks marked by name.
export const INDEPENDENT_FAULTS_7 = {
  // SPEC
  'ind7-spec-runtime-security-empty': 'spec: GET /v1/runtimes/{id} declares security [] (public), though the service asks for the bearer key',
  'ind7-spec-nullable-type-array': 'spec: CheckUpdate.description typed ["string", "null"] (3.1 style) in an OpenAPI 3.0.3 document',
  'ind7-spec-429-attributes-string': 'spec: TooManyRequestsError.attributes typed string ("content not described"), while 429s carry an object',
  'ind7-spec-offset-snake-case': 'spec: the CheckUpdate body schema names the offset frequency_offset (its database column), not frequencyOffset',
  // AUTH
  'ind7-auth-head-unauthenticated': 'HEAD requests to /v1 routes skip authentication (let through as load-balancer pings)',
  'ind7-auth-nil-guid-default-account': "the nil GUID 00000000-0000-0000-0000-000000000000 as account header is read as unset: the key's own account",
  'ind7-auth-429-attributes-key': "429 bodies report the limiter's bucket in attributes.key, which is the API key",
  // RT
  'ind7-rt-cache-miss-404': 'read-through runtime cache: the first request for each runtime answers 404 while the cache is filled',
  'ind7-rt-multistep-omitempty': 'multiStepSupport false is left out of the body (a serializer that omits false values)',
  'ind7-rt-eol-locale-unpadded': 'runtimeEndOfLife written by toLocaleDateString("en-US"): "3/31/2027", not "03/31/2027"',
  'ind7-rt-malformed-id-400': 'runtime ids not of the form NNNN.NN are refused 400 by a route parameter pattern, not 404',
  // ERR
  'ind7-err-404-template-after-401': 'the 401 helper Object.assign()s into the shared error template: after a 401, 404 bodies say 401 Unauthorized',
  'ind7-err-foreign-check-403-body-404': 'a check id of another account is answered HTTP 403 with the 404 body (statusCode 404) left in place',
  // RL
  'ind7-rl-reset-counts-twice': 'fixed window: the request that starts a new window is counted twice, so after a reset only max - 1 are served',
  'ind7-rl-counter-lost-update': 'the global counter is read, then written 2 ms later: concurrent requests overwrite each other and more than max are served',
  'ind7-rl-retry-after-epoch-date': 'Retry-After of a 429 written as an HTTP-date of the delta read as an epoch (a date in 1970)',
  // CU
  'ind7-cu-stale-read-cache': 'GET /v1/checks/:id is cached for 30 s and the update does not invalidate it: reads show the old values',
  'ind7-cu-grouporder-zero-refused': 'groupOrder read as a 1-based position: 0 refused',
  'ind7-cu-runtime-range-check': 'runtimeId checked as a YYYY.MM between the oldest and the newest runtime: 2025.01, 2024.13 accepted',
  'ind7-cu-rollback-to-seed': 'a refused update "rolls back" to the check as first loaded, undoing the updates accepted since',
  'ind7-cu-cross-account-id': "checks looked up by id alone: another account's check is read and updated (200), not 404",
  // FO
  'ind7-fo-zero-falsy': 'frequency 0 in the body replaced by the stored frequency (`||`): the offset and check type judged as for that frequency',
  'ind7-fo-browser-range-unchecked': 'the offset ranges of frequency > 0 checked on API checks only: a browser check takes any offset',
  // AG (agent)
  'ind7-agent-liveness-before-first-heartbeat': 'liveness answers 503 for the first 2 s after start, until the first heartbeat',
  'ind7-agent-health-legacy-port': '/health is left on the legacy 8081 listener: on the port set by AGENT_HEALTH_PORT it answers 404',
} as const satisfies Record<string, string>;

/** ind7-agent-liveness-before-first-heartbeat: how long after start liveness waits for the first heartbeat. */
export const FIRST_HEARTBEAT_MS = 2000;

// The eighth batch (ind8-*): same rule; each bug follows a principle no earlier batch used (a path's
// trailing slash, a quoted literal, a remembered header, a cache key that collides, an array's other
// spelling, a switch that falls through, the order of a body's keys, a probe's Accept header…).
export const INDEPENDENT_FAULTS_8 = {
  // SPEC
  'ind8-spec-runtime-path-trailing-slash': 'spec: the runtime operation is described at /v1/runtimes/{id}/ (trailing slash), a path the service does not serve',
  'ind8-spec-404-status-enum-quoted': 'spec: NotFoundError.statusCode is a number whose enum is the string "404": no 404 body can match it',
  'ind8-spec-runtime-stage-required': 'spec: Runtime.required lists stage (a NOT NULL column of the model), which the document makes optional',
  // AUTH
  'ind8-auth-account-remembered': 'the account header of a key is remembered: after one accepted request, the same key is served without the header',
  'ind8-auth-account-exists-only': "the account header is only checked to name an existing account, not the key's: the key acts for any account it names",
  'ind8-auth-guid-uppercase-refused': 'the account GUID is matched by a lower-case-only pattern: the own account in upper case is refused 400',
  // RT
  'ind8-rt-json-suffix-stripped': 'a trailing ".json" on the runtime id is read as a format suffix: /v1/runtimes/2025.04.json answers 200',
  'ind8-rt-cache-key-year': 'the runtime response cache is keyed by the year: after 2024.02 was read, 2024.09 answers with 2024.02',
  'ind8-rt-stage-past-eol-computed': 'stage computed at request time: a runtime past its runtimeEndOfLife is served with stage "END_OF_LIFE"',
  'ind8-rt-deps-npm-ls-shape': 'dependencies of 2026.04 (a new packaging pipeline) come in the `npm ls --json` shape: {"name": {"version": "x"}}',
  // ERR
  'ind8-err-400-duplicate-status-key': 'the 400 of a refused update has the validator\'s details spliced into its JSON, a second "statusCode": 422 last',
  'ind8-err-405-empty-body': 'another method on a known path (DELETE, POST, PATCH) answers 405 with an Allow header and an empty body, no content type',
  'ind8-err-429-attributes-entries': '429 bodies carry attributes as Object.entries() pairs ([["limit",600],…]), an array, not an object',
  // RL
  'ind8-rl-429-headers-next-window': 'a 429 carries the limit headers of the next window: x-ratelimit-remaining the full limit, reset the whole window',
  'ind8-rl-bucket-raw-authorization': 'the limiter counts by the raw Authorization value: "Bearer k", "bearer k" and "Bearer  k" are three budgets of one key',
  'ind8-rl-ban-403-after-refusals': 'after three refusals in a window the key is "banned": further requests over the limit answer 403, not 429',
  // CU
  'ind8-cu-deep-merge-arrays': 'the update is deep-merged into the check (lodash merge): arrays merge by index, so locations [a] over [b, c] is [a, c]',
  'ind8-cu-concurrent-lost-update': 'the update awaits the catalogue between reading and writing the check, unlocked: of two concurrent updates one is lost',
  'ind8-cu-description-null-500': 'description counted with [...description].length before the null check: description null answers 500',
  'ind8-cu-locations-contains': 'locations validated with "contains" (at least one allowed value), not "items": ["eu-west-1", "mars-1"] accepted',
  // FO
  'ind8-fo-offset-before-frequency-key': 'the offset is judged against the frequency as of its place in the body: sent before frequency, the stored frequency',
  'ind8-fo-zero-denylist-browser': 'frequency 0 refused only for BROWSER checks (a deny-list): MULTI_STEP, TCP, … accept frequency 0',
  'ind8-fo-zero-switch-fallthrough': 'a switch on the frequency falls through from the frequency 0 case into the range case (1..0): offsets 10, 20, 30 refused',
  // AG (agent)
  'ind8-agent-liveness-after-error':
    'liveness answers 503 for a second after the agent answered any request with an error (an error-rate indicator counting 4xx answers)',
  'ind8-agent-health-accept-json': '/health answers 406 unless the request accepts application/json explicitly (a client sending */* is refused)',
} as const satisfies Record<string, string>;

/** ind8-agent-liveness-after-error: how long after an error answer liveness reports unhealthy. */
export const ERROR_WINDOW_MS = 1000;

// The ninth batch (ind9-*): same rule; each bug follows a principle no earlier batch used (a byte order
// mark, a closed schema, a fail-open parser, a login redirect, a zero-based month, a plain object as a
// map, request coalescing, a double-encoded column, a limiter counted twice or behind a cache, a storage
// charset, a shallow copy, a one-way rule, a remembered refused value, loose equality, a port's digits…).
export const INDEPENDENT_FAULTS_9 = {
  // SPEC
  'ind9-spec-utf8-bom': 'spec: /openapi.json is served with a UTF-8 byte order mark before the JSON (the file saved by an editor that adds one)',
  'ind9-spec-account-param-in-query':
    'spec: the account parameter of GET /v1/runtimes/{id} is declared in: query (copied from a query parameter block), not in: header',
  'ind9-spec-404-closed-no-message':
    'spec: NotFoundError is closed (additionalProperties false) and lists no message, so every 404 body with a message fails it',
  'ind9-spec-security-name-mismatch':
    'spec: the bearer scheme is renamed bearerAuth in components while the security requirement still names Bearer (no such scheme)',
  // AUTH
  'ind9-auth-login-redirect': 'a GET to /v1 without Authorization from a client not asking for JSON is redirected (302) to an HTML login page',
  'ind9-auth-malformed-key-fail-open':
    "a bearer key without the mon_ prefix makes the key parser throw, and the catch lets the request through as the account header's account",
  'ind9-auth-update-legacy-basic': "PUT /v1/checks/:id keeps the old dashboard's auth, which also takes Basic base64(<key>:)",
  // RT
  'ind9-rt-eol-zero-based-month': 'runtimeEndOfLife formatted with getUTCMonth() (0-based) and no +1: 03/31/2027 is served as "02/31/2027"',
  'ind9-rt-deps-double-encoded': 'dependencies of the runtimes with an end of life (a legacy table with a JSON text column) are a JSON string, not an object',
  'ind9-rt-lookup-plain-object': 'runtimes looked up in a plain object: ids such as constructor, toString, __proto__ answer 200 with {"dependencies":{}}',
  'ind9-rt-singleflight-route-key':
    "concurrent runtime reads are coalesced on one in-flight catalogue read keyed by the route: they all get the first id's runtime",
  // ERR
  'ind9-err-404-nbsp': '404 of an unknown runtime id says error "Not\\u00a0Found" (a no-break space copied from the rendered docs)',
  'ind9-err-two-problems-status':
    'an invalid body to an unknown check id is answered HTTP 404 with the validation error\'s body (statusCode 400, "Bad Request")',
  // RL
  'ind9-rl-checks-counted-twice':
    'the limiter is registered again in the checks scope: each /v1/checks request counts twice, so only half the limit is served there',
  'ind9-rl-cache-before-limiter':
    'a 1 s micro-cache of runtime reads (per URL and credentials) answers before the limiter: repeated reads are never counted nor refused',
  'ind9-rl-reset-wall-clock-minute':
    "x-ratelimit-reset counts to the end of the wall-clock window (epoch-aligned), while the window really starts at the key's first request",
  // CU
  'ind9-cu-utf8mb3-astral': 'strings are stored in a 3-byte utf8 column: characters outside the BMP (emoji) read back as "?" (the update answer shows them)',
  'ind9-cu-browser-description-unbounded':
    'browser checks are validated by the browser schema, whose description has no maxLength: 501 characters accepted there',
  'ind9-cu-shallow-copy-arrays': 'the draft is a shallow copy and arrays are replaced in place: the arrays of a body refused by the offset rules are kept',
  'ind9-cu-runtime-no-downgrade': 'runtimeId may not go back to an older runtime: after 2026.04, 2025.04 is refused',
  // FO
  'ind9-fo-refused-frequency-remembered':
    'the frequency of the last body received for a check (a refused one too) is remembered and used when a body sends none',
  'ind9-fo-hourly-in-hours': 'frequencies above 60 are converted to hours before ceil(frequency / 60): only offset 1 accepted above 60',
  'ind9-fo-unchanged-loose-equality': 'an offset == the stored one (loose) is dropped as unchanged: "1", true, [1] accepted while the stored offset is 1',
  // AG (agent)
  'ind9-agent-port-four-digits': 'AGENT_HEALTH_PORT is read by a four-digit pattern: a port above 9999 falls back to 8081',
  'ind9-agent-probe-throttle': 'each health endpoint serves 5 probes per second; more are answered 429 (during the drain too)',
} as const satisfies Record<string, string>;

/** ind9-agent-probe-throttle: probes per endpoint served in one second. */
export const PROBES_PER_SECOND = 5;
