/**
 * The rules of the API document in full, clause by clause, and docs/clauses.md written from them
 * (`npm run docs`). The ids and one-line summaries are in clauses.ts; `satisfies` keeps the two in step.
 */
import { CLAUSE_IDS, familyOf, type ClauseId } from './clauses';

export const FAMILIES = {
  SPEC: 'the machine-readable specification and versioning',
  AUTH: 'authentication',
  RT: 'get one runtime',
  ERR: 'error bodies',
  RL: 'rate limit',
  CU: 'the deprecated check update',
  FO: 'frequencyOffset (checked against the frequency the check has after the update)',
  AG: 'private location agent health',
} as const;

/** How the suite reads "rejected", and what it does where the document is silent or the spec lags. */
export const READING = `Every contract test names the clause ids it verifies, and the contract matrix counts them. Where the
document is silent (for example which status an invalid body gets), the target's own OpenAPI document
decides: a response status should be one that the spec declares for that operation, and its body must
match the schema declared for that status. "Rejected" means: a 4xx status and no change of state,
whatever caused the rejection (credentials, account header, query parameter, body, rate limit). Never
2xx, never 5xx. The body of every error answer is judged by ERR-3 and ERR-4 (and AUTH-7; ERR-1 and ERR-2
for 404 and 429 bodies), once per place and status, not again by the clause whose probe provoked it:
one cause, one failure. A 401 whose body is not JSON fails ERR-3 once for that place, not AUTH-1,
AUTH-2, AUTH-3 and AUTH-6 beside it.

Published specs are incomplete, so:
- A request the suite sends valid must get a declared 2xx whose body matches the declared schema; a
  request it sends invalid on purpose must get a 4xx (never 2xx, never 5xx). Those are failures: the
  status class of the clause the request tries, the declaration and the schema of SPEC-9.
- A 4xx answer to an invalid request that the spec does not declare for that operation is **spec
  drift**: a warning on the test and in the reports, a failure only with \`STRICT_SPEC=on\`. Where the
  status is declared, its body must match the declared schema.
- A value the document allows that the target's spec does not list (a check type, say) may be sent;
  the target may refuse it (a 4xx that changes nothing) or accept it, and an echo outside the spec's enum
  is spec drift too (a warning), not a schema failure.
- What the document does not state is never a failure: for example whether the limit is counted per key
  or per client address, or whether refused requests count toward it. The suite may note what it saw.`;

export const CLAUSE_TEXT = {
  'SPEC-1': '`GET {base_url}/openapi.json` answers 200 with a valid OpenAPI 3.x document (parsed, validated, dereferenced).',
  'SPEC-2': 'The public API is v1: the documented operations live under `/v1/`.',
  'SPEC-3': 'The operations declare one security scheme, HTTP bearer.',
  'SPEC-4': '`GET /v1/runtimes/{id}` is described: required string path parameter `id`, the account header parameter, responses 200 (Runtime), 404 and 429.',
  'SPEC-5':
    'The check update operation is marked deprecated, takes a path id, a boolean query parameter (auto-subscribe to alert channels), and a JSON body whose schema has `frequencyOffset` and `retryStrategy`.',
  'SPEC-6':
    'The Runtime schema requires `name`, `multiStepSupport`, `nodeJsVersion`, `dependencies`; `stage` is an enum of ALPHA, BETA, CURRENT, DEPRECATED, REMOVED, STABLE.',
  'SPEC-7': 'The 404 and 429 response schemas of the runtime operation match ERR-1 and ERR-2.',
  'SPEC-8': 'The older `swagger.json` is not the current specification (if it is served at all, it is not newer than openapi.json).',
  'SPEC-9':
    "Every response the suite provokes conforms to the target's own spec: a declared status (spec drift rules above), and a body that matches the schema declared for it. One failure per operation, status and schema path, whichever tests saw it; the document's own rules (RT-3, say) are judged by their clauses beside it.",
  'AUTH-1':
    'No Authorization header: rejected. The key offered any other way (a query parameter, a cookie, another header) does not authenticate a request that lacks the Authorization header.',
  'AUTH-2': 'The key in another scheme (`Basic …`, `Token …`, the bare key): rejected.',
  'AUTH-3': 'An unknown or malformed bearer key: rejected.',
  'AUTH-4': 'A valid bearer key with the account header: accepted (200 on the runtime operation).',
  'AUTH-5': 'The account header is called for with every request: without it, rejected.',
  'AUTH-6': 'The account header value must be a GUID: a malformed value is rejected; a well-formed GUID of another account is rejected.',
  'AUTH-7': 'An error body never echoes the API key back.',
  'RT-1':
    'For every accepted runtime version (2026.04, 2025.04, 2024.09, 2024.02, 2023.09, 2023.02, 2022.10) the operation answers 200 with a Runtime, content type JSON.',
  'RT-2': '`name` equals the requested id and has the form YYYY.MM (a real month).',
  'RT-3': '`nodeJsVersion` has the form `v<major>.<minor>.<patch>`.',
  'RT-4': '`multiStepSupport` is a boolean.',
  'RT-5': '`stage`, when present, is one of the six stages.',
  'RT-6': '`runtimeEndOfLife`, when present, is a real calendar date written MM/DD/YYYY.',
  'RT-7': '`dependencies` is a non-empty object mapping package names to version strings.',
  'RT-8': '`description`, when present, is a string.',
  'RT-9':
    'Unknown ids (a version that never existed, malformed ids, encoded slashes and dots, very long ids, non-ASCII) answer 404 with the ERR-1 body, never 5xx.',
  'ERR-1': '404: JSON object, `statusCode` the number 404, `error` exactly "Not Found", `message` an optional string.',
  'ERR-2': '429: JSON object, `statusCode` the number 429, `error` exactly "Too Many Requests", `message` an optional string, `attributes` an optional object.',
  'ERR-3': 'Every error response (any 4xx, whatever provoked it, a request no route handles included) carries a JSON content type and a JSON object body.',
  'ERR-4': 'In every error body, `statusCode` equals the HTTP status of the response.',
  'RL-1': 'At least 600 requests per 60 seconds are served: no 429 before the limit is reached.',
  'RL-2': 'More than 600 requests within 60 seconds yield 429.',
  'RL-3': 'Every 429 carries the ERR-2 body.',
  'RL-4': "A custom limit that the spec states for a route (in the operation's description) holds for that route.",
  'RL-5': 'After the window has passed, requests are served again.',
  'RL-6':
    "Rate-limit headers, where the target sends them (Retry-After, RateLimit-*, X-RateLimit-*), agree with what it does, judged against the policy they announce: headers that announce the global limit are checked against the global window on every route, headers that announce a route's own limit against that limit. A server with several limits may report only one of them; a 429 from a stricter route limit while the global headers still show room is a note, not a failure (a positive remaining count is no promise).",
  'CU-1': 'A valid update of an existing check is accepted, and a read afterwards shows the new values.',
  'CU-2':
    "`description`: 500 characters accepted, 501 rejected (characters, not bytes or UTF-16 units); null accepted where the target's spec declares the property nullable.",
  'CU-3': '`groupOrder`: integer >= 0 or null; -1 and 1.5 rejected.',
  'CU-4': '`locations`: one or more of the 22 allowed values; an unknown value or an empty array rejected.',
  'CU-5': '`runtimeId`: one of the accepted runtime versions; any other rejected.',
  'CU-6': '`checkType`: one of the documented types; any other rejected.',
  'CU-7': 'A rejected update changes nothing: every property of the same body stays as it was.',
  'CU-8': 'An unknown check id answers 404 (or another status the spec declares for it), never 2xx.',
  'CU-9': 'After the run, the checks the suite touched are as they were before.',
  'FO-1': 'Frequency 0 (API checks only): offsets 10, 20, 30 accepted; every other value rejected.',
  'FO-2': 'Frequency 1..60: offsets 1..floor(frequency * 10) accepted; 0 and floor(frequency * 10) + 1 rejected.',
  'FO-3': 'Frequency above 60: offsets 1..ceil(frequency / 60) accepted; ceil(frequency / 60) + 1 rejected.',
  'FO-4': 'Not an integer >= 1 (0, negative, fractional, a string, null): rejected.',
  'FO-5': 'Frequency 0 on any check that is not an API check (the document: "API checks only"), a browser check first among them: rejected.',
  'AG-1': '`GET /-/readiness` answers 200 when the agent is ready.',
  'AG-2': '`GET /-/liveness` answers 200.',
  'AG-3': '`GET /health` answers 200.',
  'AG-4': 'The endpoints are served on the port given in `AGENT_HEALTH_PORT` (8081 when unset).',
  'AG-5':
    'During shutdown (after SIGTERM) readiness answers 503 while liveness still answers 200, until the process exits (AG-1..3 hold during shutdown too: `/health` and liveness stay 200 until the process exits).',
} as const satisfies Record<ClauseId, string>;

export const CLAUSES_DOC_PATH = 'docs/clauses.md';

/** docs/clauses.md as text: the reading rules, then each family's clauses with their ids. */
export function renderClausesDoc(): string {
  const lines = [
    '# Clauses of the API document',
    '',
    '<!-- Written by `npm run docs` from support/document/clauses.ts and clause-text.ts; edit those, not this file. -->',
    '',
    "Every testable rule of the monitoring service's API document, with the id the tests, the contract",
    'matrix and the self-test use for it.',
    '',
    READING,
    '',
  ];
  for (const [family, title] of Object.entries(FAMILIES)) {
    lines.push(`## ${family}: ${title}`, '');
    for (const id of CLAUSE_IDS.filter((c) => familyOf(c) === family)) lines.push(`- **${id}** ${CLAUSE_TEXT[id]}`);
    lines.push('');
  }
  return lines.join('\n');
}
