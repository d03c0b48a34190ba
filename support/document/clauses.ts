/**
 * The clause catalogue: every testable rule of the API document, by id, with a one-line summary.
 * The full texts are in clause-text.ts (docs/clauses.md is written from both); tests annotate themselves with these ids and the contract matrix has
 * one row per entry here, covered or not.
 */
export const CLAUSES = {
  'SPEC-1': 'GET /openapi.json answers 200 with a valid OpenAPI 3.x document',
  'SPEC-2': 'The documented operations live under /v1/',
  'SPEC-3': 'The operations declare one security scheme, HTTP bearer',
  'SPEC-4': 'The runtime operation is described: path id, account header, responses 200, 404, 429',
  'SPEC-5': 'The check update is deprecated, takes path id, boolean query, body with frequencyOffset and retryStrategy',
  'SPEC-6': 'Runtime schema requires name, multiStepSupport, nodeJsVersion, dependencies; stage enum of six',
  'SPEC-7': "The runtime operation's 404 and 429 schemas match ERR-1 and ERR-2",
  'SPEC-8': 'swagger.json is not the current specification',
  'SPEC-9': "Every response provoked conforms to the target's own spec: declared status, matching body",
  'AUTH-1': 'No Authorization header (the key offered any other way): rejected',
  'AUTH-2': 'The key in another scheme (Basic, Token, bare): rejected',
  'AUTH-3': 'An unknown or malformed bearer key: rejected',
  'AUTH-4': 'A valid bearer key with the account header: accepted',
  'AUTH-5': 'The account header is required: without it, rejected',
  'AUTH-6': "The account header must be a GUID of the key's account",
  'AUTH-7': 'An error body never echoes the API key',
  'RT-1': 'Every accepted runtime version answers 200 with a JSON Runtime',
  'RT-2': 'name equals the requested id and has the form YYYY.MM',
  'RT-3': 'nodeJsVersion has the form v<major>.<minor>.<patch>',
  'RT-4': 'multiStepSupport is a boolean',
  'RT-5': 'stage, when present, is one of the six stages',
  'RT-6': 'runtimeEndOfLife, when present, is a real date written MM/DD/YYYY',
  'RT-7': 'dependencies is a non-empty map of package names to version strings',
  'RT-8': 'description, when present, is a string',
  'RT-9': 'Unknown and malformed runtime ids answer 404 with the ERR-1 body, never 5xx',
  'ERR-1': '404 body: statusCode 404, error "Not Found", optional string message',
  'ERR-2': '429 body: statusCode 429, error "Too Many Requests", optional message and attributes',
  'ERR-3': 'Error responses carry a JSON content type and a JSON object body',
  'ERR-4': 'In every error body, statusCode equals the HTTP status',
  'RL-1': 'At least the documented number of requests per window are served',
  'RL-2': 'More requests than the limit within the window yield 429',
  'RL-3': 'Every 429 carries the ERR-2 body',
  'RL-4': 'A custom per-route limit stated in the spec holds for that route',
  'RL-5': 'After the window has passed, requests are served again',
  'RL-6': 'Rate-limit headers, where sent, agree with what the target does',
  'CU-1': 'A valid update is accepted and reads back with the new values',
  'CU-2': 'description: 500 characters accepted, 501 rejected, null accepted',
  'CU-3': 'groupOrder: integer >= 0 or null; -1 and 1.5 rejected',
  'CU-4': 'locations: one or more of the 22 allowed; unknown or empty rejected',
  'CU-5': 'runtimeId: one of the accepted versions; any other rejected',
  'CU-6': 'checkType: one of the documented types; any other rejected',
  'CU-7': 'A rejected update changes nothing',
  'CU-8': 'An unknown check id answers 404 (or a declared 4xx), never 2xx',
  'CU-9': 'After the run, the touched checks are as they were before',
  'FO-1': 'Frequency 0 (API checks only): offsets 10, 20, 30 accepted; others rejected',
  'FO-2': 'Frequency 1..60: offsets 1..floor(f*10) accepted; 0 and floor(f*10)+1 rejected',
  'FO-3': 'Frequency above 60: offsets 1..ceil(f/60) accepted; ceil(f/60)+1 rejected',
  'FO-4': 'An offset that is not an integer >= 1 is rejected',
  'FO-5': 'Frequency 0 on a browser check: rejected',
  'AG-1': 'GET /-/readiness answers 200 when the agent is ready',
  'AG-2': 'GET /-/liveness answers 200',
  'AG-3': 'GET /health answers 200',
  'AG-4': 'The endpoints are served on AGENT_HEALTH_PORT (8081 when unset)',
  'AG-5': 'After SIGTERM readiness answers 503 while liveness answers 200, until exit',
} as const;

export type ClauseId = keyof typeof CLAUSES;

export const CLAUSE_IDS = Object.keys(CLAUSES) as ClauseId[];

export const familyOf = (id: ClauseId) => id.slice(0, id.indexOf('-')) as Family;

export type Family = 'SPEC' | 'AUTH' | 'RT' | 'ERR' | 'RL' | 'CU' | 'FO' | 'AG';

/**
 * The Playwright tag of each family, named after its test file (tests/<family>.spec.ts; auth's is credentials.spec.ts):
 * FO's clauses are judged by the check update's tests. `--grep` ignores case, so `@auth` and `@spec` also match the clause
 * tags `@AUTH-…` and `@SPEC-…`: `--grep "@spec(?!-)"` selects the family alone.
 */
export const FAMILY_TAGS = {
  SPEC: '@spec',
  AUTH: '@auth',
  RT: '@runtime',
  ERR: '@errors',
  RL: '@rate-limit',
  CU: '@check-update',
  FO: '@check-update',
  AG: '@agent',
} as const satisfies Record<Family, string>;

/** A test's tags, from the clauses it declares: its family's (that of its first clause), then `@<clause id>` for each. */
export const clauseTags = (ids: readonly ClauseId[]): string[] => [...(ids.length ? [FAMILY_TAGS[familyOf(ids[0])]] : []), ...ids.map((id) => `@${id}`)];

export function isClauseId(value: string): value is ClauseId {
  return Object.hasOwn(CLAUSES, value);
}
