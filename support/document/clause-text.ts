/**
 * The clause catalogue, one entry per clause (its id, which names its family; a one-line summary for the reports; the full
 * text for docs/clauses.md), written from the document's facts: a number or a list in a clause is the fact's value, so
 * facts.ts states it once. clauses.ts keeps the catalogue of the document's own facts; `npm run docs` writes docs/clauses.md.
 */
import * as documentFacts from './facts';

/** The facts as values of their kinds (any number, not the literal type of the one stated), so that the catalogue can be written from others too. */
type Widen<T> = T extends number
  ? number
  : T extends string
    ? string
    : T extends readonly (infer U)[]
      ? readonly Widen<U>[]
      : { readonly [K in keyof T]: Widen<T[K]> };
export type Facts = Widen<typeof documentFacts>;

export interface ClauseEntry {
  summary: string;
  text: string;
}

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

const list = (values: readonly unknown[]) => values.join(', ');

/** Every clause, in the order of the document; a clause's family is its id's prefix. */
export const clauseCatalogue = (f: Facts) =>
  ({
    'SPEC-1': {
      summary: 'GET /openapi.json answers 200 with a valid OpenAPI 3.x document',
      text: '`GET {base_url}/openapi.json` answers 200 with a valid OpenAPI 3.x document (parsed, validated, dereferenced).',
    },
    'SPEC-2': { summary: 'The documented operations live under /v1/', text: 'The public API is v1: the documented operations live under `/v1/`.' },
    'SPEC-3': { summary: 'The operations declare one security scheme, HTTP bearer', text: 'The operations declare one security scheme, HTTP bearer.' },
    'SPEC-4': {
      summary: 'The runtime operation is described: path id, account header, responses 200, 404, 429',
      text: `\`GET ${f.RUNTIME_PATH}\` is described: required string path parameter \`id\`, the account header parameter, responses 200 (Runtime), 404 and 429.`,
    },
    'SPEC-5': {
      summary: 'The check update is deprecated, takes path id, boolean query, body with frequencyOffset and retryStrategy',
      text: 'The check update operation is marked deprecated, takes a path id, a boolean query parameter (auto-subscribe to alert channels), and a JSON body whose schema has `frequencyOffset` and `retryStrategy`.',
    },
    'SPEC-6': {
      summary: `Runtime schema requires name, multiStepSupport, nodeJsVersion, dependencies; stage enum of ${f.RUNTIME_STAGES.length}`,
      text: `The Runtime schema requires \`name\`, \`multiStepSupport\`, \`nodeJsVersion\`, \`dependencies\`; \`stage\` is an enum of ${list(f.RUNTIME_STAGES)}.`,
    },
    'SPEC-7': {
      summary: "The runtime operation's 404 and 429 schemas match ERR-1 and ERR-2",
      text: 'The 404 and 429 response schemas of the runtime operation match ERR-1 and ERR-2.',
    },
    'SPEC-8': {
      summary: 'swagger.json is not the current specification',
      text: 'The older `swagger.json` is not the current specification (if it is served at all, it is not newer than openapi.json).',
    },
    'SPEC-9': {
      summary: "Every response provoked conforms to the target's own spec: declared status, matching body",
      text: "Every response the suite provokes conforms to the target's own spec: a declared status (spec drift rules above), and a body that matches the schema declared for it. One failure per operation, status and schema path, whichever tests saw it; the document's own rules (RT-3, say) are judged by their clauses beside it.",
    },

    'AUTH-1': {
      summary: 'No Authorization header (the key offered any other way): rejected',
      text: 'No Authorization header: rejected. The key offered any other way (a query parameter, a cookie, another header) does not authenticate a request that lacks the Authorization header.',
    },
    'AUTH-2': {
      summary: 'The key in another scheme (Basic, Token, bare): rejected',
      text: 'The key in another scheme (`Basic …`, `Token …`, the bare key): rejected.',
    },
    'AUTH-3': { summary: 'An unknown or malformed bearer key: rejected', text: 'An unknown or malformed bearer key: rejected.' },
    'AUTH-4': {
      summary: 'A valid bearer key with the account header: accepted',
      text: 'A valid bearer key with the account header: accepted (200 on the runtime operation).',
    },
    'AUTH-5': {
      summary: 'The account header is required: without it, rejected',
      text: 'The account header is called for with every request: without it, rejected.',
    },
    'AUTH-6': {
      summary: "The account header must be a GUID of the key's account",
      text: 'The account header value must be a GUID: a malformed value is rejected; a well-formed GUID of another account is rejected.',
    },
    'AUTH-7': { summary: 'An error body never echoes the API key', text: 'An error body never echoes the API key back.' },

    'RT-1': {
      summary: 'Every accepted runtime version answers 200 with a JSON Runtime',
      text: `For every accepted runtime version (${list(f.RUNTIME_VERSIONS)}) the operation answers 200 with a Runtime, content type JSON.`,
    },
    'RT-2': {
      summary: `name equals the requested id and has the form ${f.RUNTIME_NAME_FORM}`,
      text: `\`name\` equals the requested id and has the form ${f.RUNTIME_NAME_FORM} (a real month).`,
    },
    'RT-3': {
      summary: `nodeJsVersion has the form ${f.NODE_VERSION_FORM}`,
      text: `\`nodeJsVersion\` has the form \`${f.NODE_VERSION_FORM}\`.`,
    },
    'RT-4': { summary: 'multiStepSupport is a boolean', text: '`multiStepSupport` is a boolean.' },
    'RT-5': {
      summary: `stage, when present, is one of the ${f.RUNTIME_STAGES.length} stages`,
      text: `\`stage\`, when present, is one of the ${f.RUNTIME_STAGES.length} stages.`,
    },
    'RT-6': {
      summary: `runtimeEndOfLife, when present, is a real date written ${f.END_OF_LIFE_FORM}`,
      text: `\`runtimeEndOfLife\`, when present, is a real calendar date written ${f.END_OF_LIFE_FORM}.`,
    },
    'RT-7': {
      summary: 'dependencies is a non-empty map of package names to version strings',
      text: '`dependencies` is a non-empty object mapping package names to version strings.',
    },
    'RT-8': { summary: 'description, when present, is a string', text: '`description`, when present, is a string.' },
    'RT-9': {
      summary: 'Unknown and malformed runtime ids answer 404 with the ERR-1 body, never 5xx',
      text: 'Unknown ids (a version that never existed, malformed ids, encoded slashes and dots, very long ids, non-ASCII) answer 404 with the ERR-1 body, never 5xx.',
    },

    'ERR-1': {
      summary: `404 body: statusCode 404, error "${f.ERROR_WORDING[404]}", optional string message`,
      text: `404: JSON object, \`statusCode\` the number 404, \`error\` exactly "${f.ERROR_WORDING[404]}", \`message\` an optional string.`,
    },
    'ERR-2': {
      summary: `429 body: statusCode 429, error "${f.ERROR_WORDING[429]}", optional message and attributes`,
      text: `429: JSON object, \`statusCode\` the number 429, \`error\` exactly "${f.ERROR_WORDING[429]}", \`message\` an optional string, \`attributes\` an optional object.`,
    },
    'ERR-3': {
      summary: 'Error responses carry a JSON content type and a JSON object body',
      text: 'Every error response (any 4xx, whatever provoked it, a request no route handles included) carries a JSON content type and a JSON object body.',
    },
    'ERR-4': {
      summary: 'In every error body, statusCode equals the HTTP status',
      text: 'In every error body, `statusCode` equals the HTTP status of the response.',
    },

    'RL-1': {
      // The summaries name no number: a run may expect another limit (RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_S) and the matrix shows them.
      summary: 'At least the documented number of requests per window are served',
      text: `At least ${f.DOCUMENTED_RATE_LIMIT.max} requests per ${f.DOCUMENTED_RATE_LIMIT.windowSeconds} seconds are served: no 429 before the limit is reached.`,
    },
    'RL-2': {
      summary: 'More requests than the limit within the window yield 429',
      text: `More than ${f.DOCUMENTED_RATE_LIMIT.max} requests within ${f.DOCUMENTED_RATE_LIMIT.windowSeconds} seconds yield 429.`,
    },
    'RL-3': { summary: 'Every 429 carries the ERR-2 body', text: 'Every 429 carries the ERR-2 body.' },
    'RL-4': {
      summary: 'A custom per-route limit stated in the spec holds for that route',
      text: "A custom limit that the spec states for a route (in the operation's description) holds for that route.",
    },
    'RL-5': { summary: 'After the window has passed, requests are served again', text: 'After the window has passed, requests are served again.' },
    'RL-6': {
      summary: 'Rate-limit headers, where sent, agree with what the target does',
      text: "Rate-limit headers, where the target sends them (Retry-After, RateLimit-*, X-RateLimit-*), agree with what it does, judged against the policy they announce: headers that announce the global limit are checked against the global window on every route, headers that announce a route's own limit against that limit. A server with several limits may report only one of them; a 429 from a stricter route limit while the global headers still show room is a note, not a failure (a positive remaining count is no promise).",
    },

    'CU-1': {
      summary: 'A valid update is accepted and reads back with the new values',
      text: 'A valid update of an existing check is accepted, and a read afterwards shows the new values.',
    },
    'CU-2': {
      summary: `description: ${f.DESCRIPTION_MAX} characters accepted, ${f.DESCRIPTION_MAX + 1} rejected, null accepted`,
      text: `\`description\`: ${f.DESCRIPTION_MAX} characters accepted, ${f.DESCRIPTION_MAX + 1} rejected (characters, not bytes or UTF-16 units); null accepted where the target's spec declares the property nullable.`,
    },
    'CU-3': { summary: 'groupOrder: integer >= 0 or null; -1 and 1.5 rejected', text: '`groupOrder`: integer >= 0 or null; -1 and 1.5 rejected.' },
    'CU-4': {
      summary: `locations: one or more of the ${f.LOCATIONS.length} allowed; unknown or empty rejected`,
      text: `\`locations\`: one or more of the ${f.LOCATIONS.length} allowed values; an unknown value or an empty array rejected.`,
    },
    'CU-5': {
      summary: 'runtimeId: one of the accepted versions; any other rejected',
      text: '`runtimeId`: one of the accepted runtime versions; any other rejected.',
    },
    'CU-6': { summary: 'checkType: one of the documented types; any other rejected', text: '`checkType`: one of the documented types; any other rejected.' },
    'CU-7': {
      summary: 'A rejected update changes nothing',
      text: 'A rejected update changes nothing: every property of the same body stays as it was.',
    },
    'CU-8': {
      summary: 'An unknown check id answers 404 (or a declared 4xx), never 2xx',
      text: 'An unknown check id answers 404 (or another status the spec declares for it), never 2xx.',
    },
    'CU-9': {
      summary: 'After the run, the touched checks are as they were before',
      text: 'After the run, the checks the suite touched are as they were before.',
    },

    'FO-1': {
      summary: `Frequency 0 (${f.SUB_MINUTE_CHECK_TYPE} checks only): offsets ${list(f.SUB_MINUTE_OFFSETS)} accepted; others rejected`,
      text: `Frequency 0 (${f.SUB_MINUTE_CHECK_TYPE} checks only): offsets ${list(f.SUB_MINUTE_OFFSETS)} accepted; every other value rejected.`,
    },
    'FO-2': {
      summary: 'Frequency 1..60: offsets 1..floor(f*10) accepted; 0 and floor(f*10)+1 rejected',
      text: 'Frequency 1..60: offsets 1..floor(frequency * 10) accepted; 0 and floor(frequency * 10) + 1 rejected.',
    },
    'FO-3': {
      summary: 'Frequency above 60: offsets 1..ceil(f/60) accepted; ceil(f/60)+1 rejected',
      text: 'Frequency above 60: offsets 1..ceil(frequency / 60) accepted; ceil(frequency / 60) + 1 rejected.',
    },
    'FO-4': {
      summary: 'An offset that is not an integer >= 1 is rejected',
      text: 'Not an integer >= 1 (0, negative, fractional, a string, null): rejected.',
    },
    'FO-5': {
      summary: 'Frequency 0 on a browser check: rejected',
      text: `Frequency 0 on any check that is not an ${f.SUB_MINUTE_CHECK_TYPE} check (the document: "${f.SUB_MINUTE_CHECK_TYPE} checks only"), a browser check first among them: rejected.`,
    },

    'AG-1': { summary: 'GET /-/readiness answers 200 when the agent is ready', text: '`GET /-/readiness` answers 200 when the agent is ready.' },
    'AG-2': { summary: 'GET /-/liveness answers 200', text: '`GET /-/liveness` answers 200.' },
    'AG-3': { summary: 'GET /health answers 200', text: '`GET /health` answers 200.' },
    'AG-4': {
      summary: `The endpoints are served on AGENT_HEALTH_PORT (${f.AGENT_DEFAULT_PORT} when unset)`,
      text: `The endpoints are served on the port given in \`AGENT_HEALTH_PORT\` (${f.AGENT_DEFAULT_PORT} when unset).`,
    },
    'AG-5': {
      summary: 'After SIGTERM readiness answers 503 while liveness answers 200, until exit',
      text: 'During shutdown (after SIGTERM) readiness answers 503 while liveness still answers 200, until the process exits (AG-1..3 hold during shutdown too: `/health` and liveness stay 200 until the process exits).',
    },
  }) as const satisfies Record<`${keyof typeof FAMILIES}-${number}`, ClauseEntry>;

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

export const CLAUSES_DOC_PATH = 'docs/clauses.md';

/** docs/clauses.md as text: the reading rules, then each family's clauses with their ids, written from the facts given. */
export function renderClausesDoc(facts: Facts = documentFacts): string {
  const lines = [
    '# Clauses of the API document',
    '',
    '<!-- Written by `npm run docs` from support/document/clause-text.ts and facts.ts; edit those, not this file. -->',
    '',
    "Every testable rule of the monitoring service's API document, with the id the tests, the contract",
    'matrix and the self-test use for it.',
    '',
    READING,
    '',
  ];
  const entries = Object.entries(clauseCatalogue(facts));
  for (const [family, title] of Object.entries(FAMILIES)) {
    lines.push(`## ${family}: ${title}`, '');
    for (const [id, { text }] of entries.filter(([id]) => id.startsWith(`${family}-`))) lines.push(`- **${id}** ${text}`);
    lines.push('');
  }
  return lines.join('\n');
}
