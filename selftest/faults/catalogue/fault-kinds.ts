// The parameterized fault kinds: `kind:arg:arg…`, each breaking one rule at one place for one value.
// The self-test writes them from tables, so the grammar is strict: a row that does not parse stops the
// process (exit 2) instead of quietly injecting nothing. Every argument is URI-decoded, so an argument
// that holds "," or ":" (a JSON pattern) travels encoded.
import { CHECK_TYPES, UPDATE_PROPERTIES } from '../../../reference/service/checks/vocabulary';
import { RUNTIME_ID_SHAPES } from '../outside/runtime-id-shape';
import type { Place as RoutePlace } from '../../../reference/service/place';

/** Routes named by role; `any` is every route, the unnamed ones (list, swagger, unknown paths) included. */
export const PLACES = ['runtime', 'check-read', 'check-update', 'spec', 'any'] as const;
// account-missing: no account header; account-empty: one sent with an empty or blank value.
export const AUTH_RULES = ['key', 'scheme', 'unknown-key', 'account-missing', 'account-empty', 'account-malformed', 'account-other'] as const;
/** Where a key offered outside the Authorization header may be looked for (auth-alt's <where>). */
export const ALT_KEY_WHERE = ['query', 'cookie', 'header'] as const;
/** Methods a service may let through apart from the rest (auth-method's <method>): HEAD, the GET without a body. */
export const AUTH_METHODS = ['HEAD'] as const;
/** What a refused update may apply before it is refused (apply-before's <rule>): an auth rule, or the query. */
export const APPLY_BEFORE_RULES = [...AUTH_RULES, 'query'] as const;
export const ERROR_MUTATIONS = [
  'string-status',
  'wording',
  'text-type',
  'status-mismatch',
  'not-json',
  'no-error',
  'no-status',
  'echo-key',
  'message-number',
  'attributes-string',
  'html',
] as const;
export const HEADER_MUTATIONS = [
  'remaining-stuck',
  'remaining-off',
  'limit-wrong',
  'reset-ms',
  'retry-after-zero',
  'retry-after-long',
  'retry-after-short',
] as const;
/**
 * What joins the key in the name of the bucket a request counts in (rl-bucket's <part>): the path and
 * query, the path, or the Authorization header as sent (its scheme's spelling).
 */
export const BUCKET_PARTS = ['url', 'path', 'authorization'] as const;
export const AGENT_ENDPOINTS = ['health', 'liveness'] as const;
/** All three endpoints of the agent (agent-down's <endpoint>). */
export const AGENT_ALL_ENDPOINTS = ['readiness', ...AGENT_ENDPOINTS] as const;
/** The fields of a Runtime (rt-field's <field>). */
export const RUNTIME_FIELDS = ['name', 'nodeJsVersion', 'multiStepSupport', 'stage', 'runtimeEndOfLife', 'dependencies', 'description'] as const;
/** How an unknown runtime id is answered under rt-unknown: found (200 with a runtime) or a failure (500). */
export const UNKNOWN_ANSWERS = ['found', 'fail'] as const;
/** The ids of one kind (rt-unknown's <id-class>): decided by the id's shape, as a router or a cache key would. */
export const RUNTIME_ID_CLASSES = RUNTIME_ID_SHAPES;
/**
 * The shape of a check id the account has not got (unknown-check's <id-shape>): a well-formed GUID, or
 * anything else, nobody created; or `foreign`, the id of another account's check.
 */
export const CHECK_ID_SHAPES = ['guid', 'other', 'foreign'] as const;
/** Update bodies that are no JSON object: broken JSON, nothing, an array, a JSON object sent as text/plain. */
export const BODY_SHAPES = ['not-json', 'empty', 'array', 'text'] as const;

/** A route's role, or every route. */
export type Place = RoutePlace | 'any';
export type AuthRule = (typeof AUTH_RULES)[number];
export type AltKeyWhere = (typeof ALT_KEY_WHERE)[number];
export type ApplyBeforeRule = (typeof APPLY_BEFORE_RULES)[number];
export type ErrorMutation = (typeof ERROR_MUTATIONS)[number];
export type HeaderMutation = (typeof HEADER_MUTATIONS)[number];
export type BucketPart = (typeof BUCKET_PARTS)[number];
export type AgentEndpoint = (typeof AGENT_ENDPOINTS)[number];
export type AnyAgentEndpoint = (typeof AGENT_ALL_ENDPOINTS)[number];
export type BodyShape = (typeof BODY_SHAPES)[number];
export type RuntimeField = (typeof RUNTIME_FIELDS)[number];
export type RuntimeIdClass = (typeof RUNTIME_ID_CLASSES)[number];
export type BodyPattern = Record<string, unknown>;

export type FaultKind =
  | { kind: 'accept' | 'refuse' | 'crash'; checkType: string; pattern: BodyPattern }
  | { kind: 'leak'; property: string }
  | { kind: 'take-body'; shape: BodyShape }
  | { kind: 'spec-drop'; pointer: string }
  | { kind: 'spec-add'; pointer: string; value: unknown }
  | { kind: 'unknown-check'; place: Place; idShape: (typeof CHECK_ID_SHAPES)[number]; answer: (typeof UNKNOWN_ANSWERS)[number] }
  | { kind: 'rt-field'; field: RuntimeField; value: unknown }
  | { kind: 'rt-unknown'; idClass: RuntimeIdClass; answer: (typeof UNKNOWN_ANSWERS)[number] }
  | { kind: 'rt-id'; id: string; answer: (typeof UNKNOWN_ANSWERS)[number] }
  | { kind: 'auth-skip'; place: Place; rule: AuthRule }
  | { kind: 'auth-strict'; place: Place }
  | { kind: 'auth-alt'; where: AltKeyWhere; name: string }
  | { kind: 'auth-method'; method: (typeof AUTH_METHODS)[number] }
  | { kind: 'apply-before'; rule: ApplyBeforeRule }
  | { kind: 'errbody'; place: Place; status: number | 'any'; mutation: ErrorMutation }
  | { kind: 'rl-limit'; delta: number }
  | { kind: 'rl-later-limit'; delta: number }
  | { kind: 'rl-exempt'; place: Place }
  | { kind: 'rl-headers'; mutation: HeaderMutation }
  | { kind: 'rl-bucket'; part: BucketPart }
  | { kind: 'agent-down'; endpoint: AnyAgentEndpoint; status: number }
  | { kind: 'agent-ready-late'; ms: number }
  | { kind: 'agent-health-dies'; endpoint: AgentEndpoint }
  | { kind: 'agent-dies-late'; endpoint: AgentEndpoint; ms: number };

// Argument readers: each returns the typed value or throws the one-line reason.
function oneOf<T extends string>(what: string, values: readonly T[]) {
  return (s: string): T => {
    if (!(values as readonly string[]).includes(s)) throw new Error(`<${what}> must be one of ${values.join(', ')}, got "${s}"`);
    return s as T;
  };
}
const place = oneOf('place', PLACES);
const checkType = oneOf('checkType', [...CHECK_TYPES, 'any']);
const property = oneOf('property', UPDATE_PROPERTIES);
const endpoint = oneOf('endpoint', AGENT_ENDPOINTS);

function ms(s: string): number {
  if (!/^\d+$/.test(s) || Number(s) > 600_000) throw new Error(`<ms> must be an integer from 0 to 600000, got "${s}"`);
  return Number(s);
}
function delta(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new Error(`<delta> must be a signed integer like +1 or -5, got "${s}"`);
  return Number(s);
}
function status(s: string): number | 'any' {
  if (s === 'any') return s;
  if (!/^[45]\d\d$/.test(s)) throw new Error(`<status> must be a 4xx or 5xx status or "any", got "${s}"`);
  return Number(s);
}
/** Any JSON value, or `missing` (the field left out). */
function fieldValue(s: string): unknown {
  if (s === 'missing') return MISSING;
  try {
    return JSON.parse(s);
  } catch {
    throw new Error(`<value> must be JSON or "missing", got ${s}`);
  }
}
/** rt-field's value for a field left out of the body. */
export const MISSING = Symbol('missing');
/** A JSON object whose keys are properties the update reads: a pattern naming anything else could never match. */
function pattern(s: string): BodyPattern {
  let v: unknown;
  try {
    v = JSON.parse(s);
  } catch {
    throw new Error(`<pattern> is not JSON: ${s}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error(`<pattern> must be a JSON object, got ${s}`);
  for (const k of Object.keys(v)) property(k);
  return v as BodyPattern;
}

interface KindSpec {
  grammar: string;
  what: string;
  parse(args: string[]): FaultKind;
}

export const KINDS: Record<string, KindSpec> = {
  accept: {
    grammar: 'accept:<checkType|any>:<pattern>',
    what: 'update too loose: a body holding every property of <pattern> (deep-equal) on the check seeded as <checkType> (whatever its type now) skips all validation and is applied as sent',
    parse: ([t, p]) => ({ kind: 'accept', checkType: checkType(t), pattern: pattern(p) }),
  },
  refuse: {
    grammar: 'refuse:<checkType|any>:<pattern>',
    what: 'update too strict: a valid body holding every property of <pattern> on the check seeded as <checkType> is refused with 400',
    parse: ([t, p]) => ({ kind: 'refuse', checkType: checkType(t), pattern: pattern(p) }),
  },
  crash: {
    grammar: 'crash:<checkType|any>:<pattern>',
    what: 'update meets a bug: a valid body holding every property of <pattern> on the check seeded as <checkType> answers 500, nothing stored',
    parse: ([t, p]) => ({ kind: 'crash', checkType: checkType(t), pattern: pattern(p) }),
  },
  leak: {
    grammar: 'leak:<property>',
    what: 'update not atomic: a rejected body still stores its <property>, as sent',
    parse: ([p]) => ({ kind: 'leak', property: property(p) }),
  },
  'take-body': {
    grammar: 'take-body:<shape>',
    what: `update too loose: a body of <shape> (${BODY_SHAPES.join(' | ')}) is read as {} and answered 200, the check unchanged`,
    parse: ([s]) => ({ kind: 'take-body', shape: oneOf('shape', BODY_SHAPES)(s) }),
  },
  'unknown-check': {
    grammar: 'unknown-check:<place>:<id-shape>:<answer>',
    what: `on <place> (check-read | check-update), a check id the account has not got, of <id-shape> (${CHECK_ID_SHAPES.join(' | ')}) is ${UNKNOWN_ANSWERS.join(' | ')}: a made-up check (200; foreign: the other account's check, looked up by id alone), or 500`,
    parse: ([pl, s, a]) => ({
      kind: 'unknown-check',
      place: place(pl),
      idShape: oneOf('id-shape', CHECK_ID_SHAPES)(s),
      answer: oneOf('answer', UNKNOWN_ANSWERS)(a),
    }),
  },
  'spec-drop': {
    grammar: 'spec-drop:<json-pointer>',
    what: 'the served openapi.json without the node at <json-pointer> (an array element is cut out)',
    parse: ([p]) => {
      if (!p.startsWith('/')) throw new Error(`<json-pointer> must start with "/", got "${p}"`);
      return { kind: 'spec-drop', pointer: p };
    },
  },
  'spec-add': {
    grammar: 'spec-add:<json-pointer>:<json-value>',
    what: 'the served openapi.json with <json-value> appended to the array at <json-pointer>',
    parse: ([p, v]) => {
      if (!p.startsWith('/')) throw new Error(`<json-pointer> must start with "/", got "${p}"`);
      const value = fieldValue(v);
      if (value === MISSING) throw new Error('<json-value> must be JSON');
      return { kind: 'spec-add', pointer: p, value };
    },
  },
  'rt-field': {
    grammar: 'rt-field:<field>:<value|missing>',
    what: `every runtime is served with <field> (${RUNTIME_FIELDS.join(' | ')}) set to the JSON <value>, or without it`,
    parse: ([f, v]) => ({ kind: 'rt-field', field: oneOf('field', RUNTIME_FIELDS)(f), value: fieldValue(v) }),
  },
  'rt-unknown': {
    grammar: 'rt-unknown:<id-class>:<answer>',
    what: `unknown runtime ids of <id-class> (${RUNTIME_ID_CLASSES.join(' | ')}) answer ${UNKNOWN_ANSWERS.join(' | ')}: 200 with the newest runtime, or 500`,
    parse: ([c, a]) => ({ kind: 'rt-unknown', idClass: oneOf('id-class', RUNTIME_ID_CLASSES)(c), answer: oneOf('answer', UNKNOWN_ANSWERS)(a) }),
  },
  'rt-id': {
    grammar: 'rt-id:<id>:<answer>',
    what: `one unknown runtime id, exactly <id> as decoded from the path (a lookup that trims or folds it onto a served one), answers ${UNKNOWN_ANSWERS.join(' | ')}`,
    parse: ([id, a]) => {
      if (!id) throw new Error('<id> must not be empty');
      return { kind: 'rt-id', id, answer: oneOf('answer', UNKNOWN_ANSWERS)(a) };
    },
  },
  'auth-skip': {
    grammar: 'auth-skip:<place>:<rule>',
    what: `one auth rule not enforced on <place>; <rule>: ${AUTH_RULES.join(' | ')}`,
    parse: ([pl, r]) => ({ kind: 'auth-skip', place: place(pl), rule: oneOf('rule', AUTH_RULES)(r) }),
  },
  'auth-strict': {
    grammar: 'auth-strict:<place>',
    what: 'a request that would be served on <place> is refused with 401 (on spec: every request)',
    parse: ([pl]) => ({ kind: 'auth-strict', place: place(pl) }),
  },
  'auth-alt': {
    grammar: 'auth-alt:<where>:<name>',
    what: `a request without Authorization is authenticated by a key offered in the ${ALT_KEY_WHERE.join(' | ')} <name> (an optional "Bearer " before it)`,
    parse: ([w, n]) => {
      if (!/^[A-Za-z0-9_-]+$/.test(n)) throw new Error(`<name> must be a parameter, cookie or header name, got "${n}"`);
      return { kind: 'auth-alt', where: oneOf('where', ALT_KEY_WHERE)(w), name: n };
    },
  },
  'auth-method': {
    grammar: 'auth-method:<method>',
    what: `requests of <method> (${AUTH_METHODS.join(' | ')}) to /v1 routes skip authentication altogether`,
    parse: ([m]) => ({ kind: 'auth-method', method: oneOf('method', AUTH_METHODS)(m) }),
  },
  'apply-before': {
    grammar: 'apply-before:<rule>',
    what: `update not atomic: a body refused for <rule> (${APPLY_BEFORE_RULES.join(' | ')}) is applied to the check first (a JSON object, its properties as sent)`,
    parse: ([r]) => ({ kind: 'apply-before', rule: oneOf('rule', APPLY_BEFORE_RULES)(r) }),
  },
  errbody: {
    grammar: 'errbody:<place>:<status|any>:<mutation>',
    what: `error responses of <place> with <status> are bent; <mutation>: ${ERROR_MUTATIONS.join(' | ')}`,
    parse: ([pl, s, m]) => ({ kind: 'errbody', place: place(pl), status: status(s), mutation: oneOf('mutation', ERROR_MUTATIONS)(m) }),
  },
  'rl-limit': {
    grammar: 'rl-limit:<delta>',
    what: 'the global limit is RATE_LIMIT_MAX + <delta> (at least 1), e.g. rl-limit:+1, rl-limit:-1',
    parse: ([d]) => ({ kind: 'rl-limit', delta: delta(d) }),
  },
  'rl-later-limit': {
    grammar: 'rl-later-limit:<delta>',
    what: "in every window of a key after its first, the global limit is RATE_LIMIT_MAX + <delta> (fixed window; the first window's limit is right): -1 counts the window's opening request twice",
    parse: ([d]) => ({ kind: 'rl-later-limit', delta: delta(d) }),
  },
  'rl-exempt': {
    grammar: 'rl-exempt:<place>',
    what: "the global limit does not apply to <place> (a route's own custom limit still does)",
    parse: ([pl]) => ({ kind: 'rl-exempt', place: place(pl) }),
  },
  'rl-bucket': {
    grammar: 'rl-bucket:<part>',
    what: `the global limit is counted per key and <part> of the request (${BUCKET_PARTS.join(' | ')}), not per key: the limit again at every URL`,
    parse: ([p]) => ({ kind: 'rl-bucket', part: oneOf('part', BUCKET_PARTS)(p) }),
  },
  'rl-headers': {
    grammar: 'rl-headers:<mutation>',
    what: `the x-ratelimit-* / retry-after headers lie; <mutation>: ${HEADER_MUTATIONS.join(' | ')}`,
    parse: ([m]) => ({ kind: 'rl-headers', mutation: oneOf('mutation', HEADER_MUTATIONS)(m) }),
  },
  'agent-down': {
    grammar: 'agent-down:<endpoint>:<status>',
    what: `agent: <endpoint> (${AGENT_ALL_ENDPOINTS.join(' | ')}) answers <status> (4xx or 5xx) while the agent runs`,
    parse: ([e, s]) => {
      const code = status(s);
      if (code === 'any') throw new Error('<status> must be a 4xx or 5xx status');
      return { kind: 'agent-down', endpoint: oneOf('endpoint', AGENT_ALL_ENDPOINTS)(e), status: code };
    },
  },
  'agent-ready-late': {
    grammar: 'agent-ready-late:<ms>',
    what: 'agent: readiness still answers 200 for the first <ms> after SIGTERM, then 503',
    parse: ([m]) => ({ kind: 'agent-ready-late', ms: ms(m) }),
  },
  'agent-health-dies': {
    grammar: 'agent-health-dies:<endpoint>',
    what: `agent: <endpoint> (${AGENT_ENDPOINTS.join(' | ')}) answers 503 during the whole drain`,
    parse: ([e]) => ({ kind: 'agent-health-dies', endpoint: endpoint(e) }),
  },
  'agent-dies-late': {
    grammar: 'agent-dies-late:<endpoint>:<ms>',
    what: `agent: <endpoint> (${AGENT_ENDPOINTS.join(' | ')}) answers 503 in the last <ms> of the drain, before the exit`,
    parse: ([e, m]) => ({ kind: 'agent-dies-late', endpoint: endpoint(e), ms: ms(m) }),
  },
};

/** The legend under the grammar lines of the fault list (selftest/faults/list.ts). */
export const ARGUMENT_HELP = [
  `<place>: ${PLACES.join(' | ')} (runtime = GET /v1/runtimes/:id, check-read = GET /v1/checks/:id, ` +
    'check-update = PUT /v1/checks/:id, spec = GET /openapi.json, any = every route, the unnamed ones too)',
  `<checkType>: the stored check's type before the update: ${CHECK_TYPES.join(' | ')} | any`,
  `<pattern>: a JSON object of update body properties, e.g. {"frequency":5,"frequencyOffset":51}; <property>: ${UPDATE_PROPERTIES.join(' | ')}`,
  '<status>: a 4xx/5xx status or any; <delta>: a signed integer (+1, -1, +5); <ms>: 0..600000',
  'errbody mutations: string-status "404"; wording the phrase miscased ("Not found", "unauthorized"); text-type text/plain, same JSON; ' +
    'status-mismatch another statusCode (401 says 403, 400 says 422, others 400); not-json text/plain "<error>: <message>"; ' +
    'no-error / no-status that property omitted; echo-key the message quotes the Authorization value sent; message-number; ' +
    'attributes-string (429) attributes as a JSON string; html an HTML page (text/html) in place of the JSON body',
  "rl-headers: the family sent is the plugin's x-ratelimit-limit / -remaining / -reset (seconds) and retry-after (seconds, on 429); " +
    'remaining-off says one more than the truth, limit-wrong max+100, retry-after-long 10x the wait, retry-after-short a quarter of it ' +
    "(under RATE_LIMIT_HEADERS=global the runtime list's headers are the global window's, and those are bent)",
];

/** Parses one `kind:arg…` string; throws a one-line reason. The arity is the grammar's. */
export function parseKind(text: string): FaultKind {
  const [name, ...raw] = text.split(':');
  const spec = Object.hasOwn(KINDS, name) ? KINDS[name] : undefined;
  if (!spec) throw new Error(`unknown fault kind "${name}"`);
  const arity = spec.grammar.split(':').length - 1;
  if (raw.length !== arity) throw new Error(`"${text}": expected ${spec.grammar}`);
  let args: string[];
  try {
    args = raw.map((a) => decodeURIComponent(a));
  } catch {
    throw new Error(`"${text}": an argument is not URI-encoded properly`);
  }
  try {
    return spec.parse(args);
  } catch (e) {
    throw new Error(`"${text}": ${(e as Error).message}`, { cause: e });
  }
}
