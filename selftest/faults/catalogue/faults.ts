// The fault catalogue: every injectable bug of the reference service and agent, name -> one line,
// plus the parameterized kinds (fault-kinds.ts). One list for both processes, so one MOCK_FAULT value
// can be handed to both: each process rejects what is in no catalogue and ignores what belongs to the other.
import { ARGUMENT_HELP, KINDS, parseKind, type FaultKind } from './fault-kinds';
import { ALIASES, Faults } from './fault-set';
import { INDEPENDENT_FAULTS, INDEPENDENT_FAULTS_6, INDEPENDENT_FAULTS_7, INDEPENDENT_FAULTS_8, INDEPENDENT_FAULTS_9 } from './independent-faults';

export { Faults };

export const FAULTS = {
  // SPEC: applied from outside the service (selftest/faults/outside/spec.ts, through REFERENCE_PLUGINS), as are
  // the spec-drop and spec-add kinds and the ind*-spec-* faults; named here so that MOCK_FAULT is checked as one list.
  'spec-missing': '/openapi.json answers 404',
  'spec-invalid': 'served document is not valid OpenAPI (a response lacks its description)',
  'spec-unversioned': 'spec lists the paths without the /v1 prefix (service unchanged)',
  'spec-bom': 'openapi.json is served with a UTF-8 byte order mark before the JSON',
  'spec-gzip-unlabelled': 'openapi.json is gzipped for clients that accept gzip, without a Content-Encoding header',
  'spec-trailing-slash': 'spec lists every path with a trailing slash (service unchanged)',
  'spec-no-bearer': 'security scheme is an apiKey in a header instead of HTTP bearer',
  'spec-runtime-no-404': 'runtime operation does not declare its 404 response',
  'spec-not-deprecated': 'check update operation is not marked deprecated',
  'spec-runtime-optional-node': 'Runtime schema does not require nodeJsVersion',
  'spec-stage-enum': 'RuntimeStage enum lacks STABLE',
  'spec-stage-extra': 'RuntimeStage enum lists a seventh value, GA',
  'spec-429-schema': '429 schema has error enum "Rate limit exceeded"',
  'spec-404-problem-json': 'the 404 responses are declared as application/problem+json (the service sends application/json)',
  'swagger-newer': 'swagger.json declares an extra operation and is newer than openapi.json',
  // AUTH
  'auth-login-redirect': 'a GET without credentials from a client that does not ask for JSON is redirected (302) to a login page',
  'auth-no-key-accepted': 'a request without Authorization is served',
  'auth-any-scheme': 'Basic/Token/bare key accepted when the key is known',
  'auth-any-key': 'any bearer key is accepted',
  'auth-wrong-account-header': 'account read from X-Account-Id instead of the documented header',
  'auth-no-account-check': 'a missing account header is accepted',
  'auth-account-not-guid': 'a malformed account header is accepted',
  'auth-other-account': 'any well-formed GUID is accepted as account',
  'auth-echo-key': '401 message quotes the key that was sent',
  'auth-key-secret-part': 'keys matched on their secret part (after the last underscore): the prefix before it is never compared',
  'auth-account-hex-only': 'the account header read as its 32 hexadecimal digits: any other character in it (a space, another separator, a prefix) ignored',
  'auth-account-first-group': "the account header compared on the GUID's first group only",
  'auth-account-from-cookie': 'served answers set a cookie naming the account, and a request without the account header that sends it back is served',
  // RT
  'rt-missing-version': 'runtime 2022.10 answers 404',
  'rt-content-type-text': 'runtime 200 is served as text/plain',
  'rt-name-mismatch': 'name of 2024.09 is "2024.9"',
  'rt-node-no-v': 'nodeJsVersion without the leading v',
  'rt-view-changes-row': "serving a runtime changes the catalogue's own row (its description grows with every read)",
  'rt-multistep-string': 'multiStepSupport is the string "true"/"false"',
  'rt-stage-lowercase': 'stage in lower case ("stable")',
  'rt-eol-iso': 'runtimeEndOfLife written as YYYY-MM-DD',
  'rt-eol-invalid-date': 'runtimeEndOfLife is "02/30/2025"',
  'rt-deps-empty': 'dependencies is {}',
  'rt-deps-number': 'one dependency version is a number',
  'rt-description-number': 'description is the number 2024',
  'rt-encoded-slash-500': 'runtime ids containing %2F answer 500',
  'rt-long-id-500': 'runtime ids over 1,000 characters answer 500',
  'rt-undecodable-id-400': "runtime ids whose percent-encoding is no UTF-8 answer 400 (the router's status) instead of 404",
  'rt-prefix-match': 'a prefix id ("2024.0") answers 200 with the first runtime it prefixes',
  'rt-concurrent-last-wins': 'runtime reads in flight at the same time are all answered with the runtime the last of them asked for',
  // ERR
  'err-404-string-status': '404 bodies carry statusCode "404" (a string)',
  'err-404-wording': '404 bodies say error "Not found"',
  'err-text-content-type': 'error responses are served as text/plain',
  'err-status-mismatch': '401 bodies say statusCode 403',
  'err-two-problems-404-body': 'an invalid body to an unknown check id is answered 400 with the not-found body (statusCode 404)',
  // RL
  'rl-none': 'no rate limit at all',
  'rl-500': 'global limit is 500 instead of RATE_LIMIT_MAX',
  'rl-700': 'global limit is 700 instead of RATE_LIMIT_MAX',
  'rl-429-body': '429 body is {code:429,message:"Rate limit exceeded"}',
  'rl-503': 'the limiter answers 503 (with a 503 body) instead of 429',
  'rl-never-reset': 'the rate-limit window never ends',
  'rl-per-ip': 'limit counted per IP, so all keys share one budget',
  'rl-custom-ignored': 'the 20/10 s limit of GET /v1/runtimes is not applied',
  'rl-custom-429-body': 'the 429 of the custom-limited GET /v1/runtimes has no statusCode',
  'rl-bad-headers': 'x-ratelimit-remaining never falls',
  'rl-reset-counts-up': 'x-ratelimit-reset and Retry-After count the seconds since the window began, not those until its end',
  // CU / FO
  'fo-upper-off-by-one-low': 'frequency <= 60 accepts offset floor(f*10)+1',
  'fo-upper-off-by-one-high': 'frequency > 60 accepts offset ceil(f/60)+1',
  'fo-too-strict': 'the maximum offset itself is rejected (both ranges)',
  'cu-refused-draft-kept': "the name and tags of a refused body stay in the check's draft and are saved with its next accepted update",
  // Applied from outside the service (selftest/faults/outside/check-update.ts).
  'cu-refused-saved-after-read': "a refused body's name is written once the check's next read has been answered (a write-behind queue)",
  'cu-no-op-refused': 'an update that would change nothing is refused (400)',
  'cu-lost-update': 'the update reads the check, waits, then writes it whole: of two updates at once, one is lost',
  'rt-accept-strict': 'the runtime operation answers 406 unless Accept is exactly application/json',
  'cu-content-type-exact': 'the update refuses a content type other than exactly application/json (a charset parameter too)',
  'fo-key-order': 'an offset sent before the frequency in the body is judged against the stored frequency',
  'fo-zero-any': 'frequency 0 accepts any integer offset >= 1',
  'fo-zero-browser': 'frequency 0 accepted on non-API checks',
  'fo-offset-zero': 'frequencyOffset 0 accepted',
  'fo-fractional': 'fractional frequencyOffset (1.5) accepted',
  'fo-string-offset': 'frequencyOffset "5" coerced and accepted',
  'fo-offset-number-unchanged': 'an offset whose Number() is the stored one ("1", [1], true while 1 is stored) is dropped as unchanged',
  'fo-refused-draft-frequency': 'the frequency of a body refused by the offset rules stays in the draft and judges the next body that sends none',
  'cu-500': 'invalid update bodies answer 500 instead of 400',
  'cu-astral-dropped': 'names are stored without their characters outside the Basic Multilingual Plane (the answer shows them)',
  'cu-description-cut-255': 'descriptions are stored cut to 255 characters (the answer shows them whole)',
  'cu-runtime-pinned-newest': 'a check on the newest runtime cannot be moved to an older one',
  'cu-partial-apply': 'a rejected body still applies its name',
  'cu-not-persisted': 'update answers 200 with the new values but stores nothing',
  'cu-null-ignored': 'null values in an update are skipped, so a cleared field keeps its old value',
  'cu-description-501': 'description limit is 501 characters',
  'cu-negative-grouporder': 'groupOrder -1 accepted',
  'cu-unknown-location': 'unknown location accepted',
  'cu-empty-locations': 'empty locations array accepted',
  'cu-unknown-runtime': 'unknown runtimeId accepted',
  'cu-unknown-checktype': 'unknown checkType accepted',
  'cu-unknown-id-200': 'unknown well-formed check id answers 200 with a made-up check',
  // The request lens: the method, the path, the media type and the body's top-level type
  'req-unknown-route-html': 'a path no route handles answers 404 with an HTML page',
  'req-too-large-bare-refusal': 'a request line or headers over the size limit answered with a bare status line: no JSON body',
  'req-unknown-route-html-for-browsers': 'a path no route handles, asked without JSON in Accept, answers 404 with an HTML page',
  'req-delete-runtime-200': 'DELETE /v1/runtimes/:id answers 200 (behind authentication)',
  'req-trailing-slash-500': '/v1/runtimes/<id>/ (a trailing slash) answers 500',
  'req-array-body-applied': 'an update body that is a JSON array is taken, its first item applied',
  'req-json-charset-500': 'an update sent as application/json; charset=utf-8 answers 500',
  // AG (agent)
  'agent-ready-503': 'readiness always answers 503',
  'agent-liveness-500': 'liveness answers 500',
  'agent-liveness-after-error': 'liveness answers 503 for a second after the agent answered any request with a 4xx',
  'agent-no-health': '/health answers 404',
  'agent-health-legacy-port': '/health answers on the default port 8081 only, not on the port given in AGENT_HEALTH_PORT',
  'agent-ignore-port': 'agent listens on AGENT_HEALTH_PORT+1',
  'agent-port-int16': 'AGENT_HEALTH_PORT above 32767 does not fit a signed 16-bit field: the default port is served',
  'agent-default-port': 'without AGENT_HEALTH_PORT the agent listens on a port of its own choosing, not 8081',
  'agent-ready-during-shutdown': 'readiness stays 200 while draining',
  'agent-liveness-dies-on-shutdown': 'liveness answers 503 while draining',
  'agent-exit-at-once': 'on SIGTERM the agent exits at once, readiness never answers 503',
  // The agent's whole life: start-up, steady state, and the moments between the port closing and the exit.
  'agent-liveness-first-503': 'liveness answers 503 to the first request it serves (before its first heartbeat), 200 after',
  'agent-ready-starting-500': 'readiness answers 500 (not 503) while the agent starts, the first 150 ms after the port opens',
  'agent-ready-flap': 'readiness answers 503 from 150 to 250 ms after the port opens, after it reported ready (not while draining)',
  'agent-health-500-steady': '/health answers 500 from 150 to 250 ms after the port opens (not while draining)',
  'agent-listener-gap': 'the listener closes 150 ms after the port opens and listens again 150 ms later, the process alive throughout',
  'agent-close-before-exit': 'after the drain the listener closes 2 s before the process exits (a slow clean-up after the server stopped)',
  // The independent faults (ind-*), written apart from the suite: see independent-faults.ts.
  ...INDEPENDENT_FAULTS,
  ...INDEPENDENT_FAULTS_6,
  ...INDEPENDENT_FAULTS_7,
  ...INDEPENDENT_FAULTS_8,
  ...INDEPENDENT_FAULTS_9,
} as const satisfies Record<string, string>;

export type FaultName = keyof typeof FAULTS;

export const isFault = (name: string): name is FaultName => Object.hasOwn(FAULTS, name);

/** Parses the items of MOCK_FAULT; throws one line naming every bad item so main() can print it and exit 2. */
export function parseFaultList(items: Iterable<string>): Faults {
  const named: FaultName[] = [];
  const kinds: FaultKind[] = [];
  const unknown: string[] = [];
  const malformed: string[] = [];
  for (const item of items) {
    if (isFault(item)) named.push(item);
    else if (item.includes(':') || Object.hasOwn(KINDS, item)) {
      try {
        kinds.push(parseKind(item));
      } catch (e) {
        malformed.push((e as Error).message);
      }
    } else unknown.push(item);
  }
  const problems = [...(unknown.length ? [`unknown fault name(s): ${unknown.join(', ')}`] : []), ...malformed];
  if (problems.length) throw new Error(`MOCK_FAULT: ${problems.join('; ')} (npx tsx selftest/faults/list.ts lists them)`);
  return new Faults(named, kinds);
}

/** The comma-separated items of MOCK_FAULT, blanks dropped. */
export const faultItems = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export const parseFaults = (raw: string | undefined): Faults => parseFaultList(faultItems(raw));

export function listFaults(): string {
  const alias = (name: FaultName) => {
    const row = ALIASES[name];
    return row ? ` (= ${Object.values(row).join(':')})` : '';
  };
  return [
    ...Object.entries(FAULTS).map(([name, what]) => `${name.padEnd(34)} ${what}${alias(name as FaultName)}`),
    '',
    'Parameterized kinds (kind:arg:arg…; an argument holding "," or ":" is encodeURIComponent-encoded):',
    ...Object.values(KINDS).map((k) => `${k.grammar.padEnd(40)} ${k.what}`),
    ...ARGUMENT_HELP,
  ].join('\n');
}
