/**
 * The request lens (issue 32, lens 1): the whole request is the input. Each part of a request (its
 * method, its path, each header's whole value, the update's body) is a dimension with its own operators,
 * one catalogue, a line each with its reason, like near-miss.ts. Operators only make the request; the
 * expectation (`Expect`) is the oracle's: what the document and the target's spec ask of it, and
 * `either` where the document is silent (a choice of our reference is never another's failure).
 */
import { randomUUID } from 'node:crypto';

/**
 * `refused`: a 4xx with the JSON error body (never 2xx, never 5xx). `either`: taken or refused, never a
 * 5xx, a refusal with the error body. `same-or-refused`: another spelling of the same resource: served as
 * the original (the right resource) or refused; a redirect to it is fine too. `no-route`: a path no route
 * handles: a 4xx with the error body. `valid`: taken as the plain request is.
 */
export type Expect = 'refused' | 'either' | 'same-or-refused' | 'no-route' | 'valid';

// ─── method ──────────────────────────────────────────────────────────────────────────────────────────

export interface MethodOperator {
  method: string;
  expect: Expect;
  /** Sent with a body `{}` (a write method): if a target took it, it changes the least. */
  body?: true;
  reason: string;
}

/** The methods tried on each route where its spec does not declare them. */
export const METHOD_OPERATORS: readonly MethodOperator[] = [
  { method: 'DELETE', expect: 'refused', reason: 'an undeclared write that succeeds removes what the document only lets a client read' },
  { method: 'POST', expect: 'refused', body: true, reason: 'an undeclared write: a 2xx creates or changes something no operation declares' },
  { method: 'PUT', expect: 'refused', body: true, reason: 'an undeclared replace' },
  { method: 'PATCH', expect: 'refused', body: true, reason: 'an undeclared partial update' },
  // HTTP semantics: HEAD is the GET without a body, and a route may answer it as its GET (or 405).
  { method: 'HEAD', expect: 'either', reason: 'RFC 9110 section 9.3.2: HEAD is GET without the content; served or 405 alike' },
  // A CORS preflight or an Allow listing: 200/204 or 405 alike, never data of the resource.
  { method: 'OPTIONS', expect: 'either', reason: 'RFC 9110 section 9.3.7: OPTIONS describes the route (CORS preflights use it); served or 405 alike' },
];

// ─── path ────────────────────────────────────────────────────────────────────────────────────────────

/** A path of a place: its collection (`/v1/runtimes`) and, where it names one, the resource's id. */
export interface PathParts {
  collection: string;
  id?: string;
}

export interface PathOperator {
  name: string;
  expect: Expect;
  /** The path sent (undefined: the operator does not apply to this place). */
  apply: (p: PathParts) => string | undefined;
  /** Dot segments or double slashes: sent as written, not resolved by the client's URL parser. */
  asWritten?: true;
  /** The server may close the connection without an answer (RFC 6585 section 5): a refusal with no body to judge. */
  mayDrop?: true;
  reason: string;
}

/** A segment no route of any service has. */
export const NO_SUCH_SEGMENT = 'contract-suite-no-such-route';

/**
 * Over the usual limits of a request line or of a header (nginx 8 KiB a line, Node 16 KiB of them all;
 * Go, Kestrel and some CDNs take more, and then answer as for any long value): what refuses it is then the
 * server itself (414, 431, 400), and its refusal is an error answer like any other (ERR-3: any 4xx,
 * whatever provoked it). RFC 6585 section 5 lets a server close the connection instead: no answer, no body to judge.
 */
export const OVER_USUAL_LIMITS_CHARS = 20 * 1024;

const full = (p: PathParts) => (p.id === undefined ? p.collection : `${p.collection}/${encodeURIComponent(p.id)}`);
/** The path with its first segment (the version) replaced; undefined when it has none. */
const versionAs = (p: PathParts, v: string | null) => {
  const m = /^\/v1(\/.*)$/.exec(full(p));
  return m ? `${v === null ? '' : `/${v}`}${m[1]}` : undefined;
};
/** Every character of the id percent-encoded (RFC 3986 section 2.3: the same path). */
const percentEncoded = (id: string) => [...Buffer.from(id, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

export const PATH_OPERATORS: readonly PathOperator[] = [
  { name: 'trailing-slash', expect: 'same-or-refused', apply: (p) => `${full(p)}/`, reason: 'a router may serve it, redirect it, or not match it' },
  {
    name: 'double-slash',
    expect: 'same-or-refused',
    asWritten: true,
    apply: (p) => full(p).replace(/^\/v1\//, '/v1//'),
    reason: 'an empty segment; some servers merge slashes before routing',
  },
  { name: 'leading-double-slash', expect: 'same-or-refused', asWritten: true, apply: (p) => `/${full(p)}`, reason: 'an empty first segment' },
  {
    name: 'dot-segment',
    expect: 'same-or-refused',
    asWritten: true,
    apply: (p) => full(p).replace(/\/([^/]+)$/, '/./$1'),
    reason: 'RFC 3986 section 5.2.4 removes "." segments; a server may or may not',
  },
  {
    name: 'dot-dot-segment',
    expect: 'same-or-refused',
    asWritten: true,
    apply: (p) => full(p).replace(/^\/v1\//, `/v1/${NO_SUCH_SEGMENT}/../`),
    reason: 'a ".." segment that climbs back to the same path',
  },
  {
    name: 'percent-encoded-id',
    expect: 'same-or-refused',
    apply: (p) => (p.id === undefined ? undefined : `${p.collection}/${percentEncoded(p.id)}`),
    reason: 'RFC 3986 section 2.3: percent-encoded unreserved characters are the characters',
  },
  {
    name: 'encoded-slash',
    expect: 'same-or-refused',
    apply: (p) => (p.id === undefined ? undefined : `${p.collection}%2F${encodeURIComponent(p.id)}`),
    reason: '%2F is not "/" (one segment), but a router that decodes before matching reads the original path',
  },
  { name: 'version-upper-case', expect: 'same-or-refused', apply: (p) => versionAs(p, 'V1'), reason: 'paths are case-sensitive, but many routers are not' },
  { name: 'no-version', expect: 'same-or-refused', apply: (p) => versionAs(p, null), reason: 'a service may serve its current version unprefixed' },
  // Another version may serve another contract: only its status class and error bodies are judged.
  { name: 'other-version', expect: 'either', apply: (p) => versionAs(p, 'v2'), reason: 'a later version may exist, with a contract of its own' },
  {
    name: 'id-removed',
    expect: 'either',
    apply: (p) => (p.id === undefined ? undefined : `${p.collection}/`),
    reason: 'the collection with a trailing slash: served as the collection, or not found',
  },
  { name: 'segment-added', expect: 'no-route', apply: (p) => `${full(p)}/${NO_SUCH_SEGMENT}`, reason: 'a sub-resource nobody declares' },
  {
    name: 'over-usual-limits',
    mayDrop: true,
    expect: 'no-route',
    apply: (p) => `${p.collection}/${'x'.repeat(OVER_USUAL_LIMITS_CHARS)}`,
    reason: 'a path longer than most servers take: not found, or refused by the server itself (414), with the error body either way',
  },
  { name: 'unknown-sibling', expect: 'no-route', apply: () => `/v1/${NO_SUCH_SEGMENT}`, reason: 'a collection nobody declares, under /v1' },
  {
    name: 'unknown-root',
    expect: 'no-route',
    apply: (p) => `/${NO_SUCH_SEGMENT}${p.id === undefined ? '' : `/${encodeURIComponent(p.id)}`}`,
    reason: 'outside the API prefix',
  },
];

// ─── headers ─────────────────────────────────────────────────────────────────────────────────────────

/** What a header operator is given: the credentials of the request and the account header's name. */
export interface HeaderContext {
  apiKey: string;
  accountId: string;
  accountHeader: string;
}

/** Header lines a request carries instead of its own: a value (null: none), or several lines of one name. */
export type HeaderLines = Record<string, string | null | string[]>;

export interface HeaderOperator {
  /** The header it varies: operators of one header are one dimension of the pairwise choice. */
  header: 'authorization' | 'account' | 'accept';
  name: string;
  expect: Expect;
  apply: (c: HeaderContext) => HeaderLines;
  /** As PathOperator's. */
  mayDrop?: true;
  reason: string;
}

/** Long but under every usual header limit (nginx 8 KiB a line, Node 16 KiB in all): refused for its value, not its size. */
export const LONG_VALUE_CHARS = 4096;

const auth = (value: (c: HeaderContext) => string | string[]) => (c: HeaderContext) => ({ authorization: value(c) });
const account = (value: (c: HeaderContext) => string | string[]) => (c: HeaderContext) => ({ [c.accountHeader.toLowerCase()]: value(c) });
const unknownKey = () => `mon_${randomUUID().replace(/-/g, '')}`;

export const HEADER_OPERATORS: readonly HeaderOperator[] = [
  // RFC 7235 section 2.1: credentials = auth-scheme [ 1*SP ... ]; the scheme is case-insensitive.
  {
    header: 'authorization',
    name: 'scheme-lower-case',
    expect: 'either',
    apply: auth((c) => `bearer ${c.apiKey}`),
    reason: 'RFC 7235: the scheme is case-insensitive',
  },
  {
    header: 'authorization',
    name: 'scheme-upper-case',
    expect: 'either',
    apply: auth((c) => `BEARER ${c.apiKey}`),
    reason: 'RFC 7235: the scheme is case-insensitive',
  },
  {
    header: 'authorization',
    name: 'two-spaces',
    expect: 'either',
    apply: auth((c) => `Bearer  ${c.apiKey}`),
    reason: 'RFC 7235 allows 1*SP; many parsers split on one',
  },
  { header: 'authorization', name: 'tab', expect: 'either', apply: auth((c) => `Bearer\t${c.apiKey}`), reason: 'a tab is no SP: a target may refuse it' },
  {
    header: 'authorization',
    name: 'trailing-space',
    expect: 'either',
    apply: auth((c) => `Bearer ${c.apiKey} `),
    reason: 'trailing whitespace is OWS a parser strips',
  },
  {
    header: 'authorization',
    name: 'repeated',
    expect: 'either',
    apply: auth((c) => [`Bearer ${c.apiKey}`, `Bearer ${c.apiKey}`]),
    reason: 'RFC 9110 section 5.3: not a list field; a recipient may refuse it or take one line',
  },
  {
    header: 'authorization',
    name: 'repeated-unknown-first',
    expect: 'either',
    apply: auth((c) => [`Bearer ${unknownKey()}`, `Bearer ${c.apiKey}`]),
    reason: "which line counts is the target's choice; either way never a 5xx",
  },
  {
    header: 'authorization',
    name: 'long-unknown-key',
    expect: 'refused',
    apply: auth(() => `Bearer mon_${'a'.repeat(LONG_VALUE_CHARS)}`),
    reason: 'AUTH-3: an unknown key of 4 KiB, refused for what it is, with the JSON error body',
  },
  // GUIDs: the same GUID in another spelling is the same account (either); no GUID is refused.
  { header: 'account', name: 'upper-case', expect: 'either', apply: account((c) => c.accountId.toUpperCase()), reason: 'GUID case is not meaningful' },
  {
    header: 'account',
    name: 'braces',
    expect: 'either',
    apply: account((c) => `{${c.accountId}}`),
    reason: 'the registry format of a GUID, which many parsers take',
  },
  {
    header: 'account',
    name: 'repeated',
    expect: 'either',
    apply: account((c) => [c.accountId, c.accountId]),
    reason: 'two lines of the same GUID: joined to a list, or the first taken',
  },
  {
    header: 'account',
    name: 'list',
    expect: 'either',
    apply: account((c) => `${c.accountId}, ${c.accountId}`),
    reason: 'a list of one GUID twice, in one line',
  },
  {
    header: 'account',
    name: 'long',
    expect: 'refused',
    apply: account(() => 'f'.repeat(LONG_VALUE_CHARS)),
    reason: 'AUTH-6: no GUID, refused for what it is, with the JSON error body',
  },
  {
    header: 'account',
    name: 'over-usual-limits',
    mayDrop: true,
    expect: 'refused',
    apply: account(() => 'f'.repeat(OVER_USUAL_LIMITS_CHARS)),
    reason: 'a header larger than most servers take: refused as no GUID, or by the server itself (431), with the error body either way',
  },
  // RFC 9110 section 12.5.1: JSON answers a client asking for JSON or anything; else a 406 or JSON anyway.
  { header: 'accept', name: 'json-charset', expect: 'valid', apply: () => ({ accept: 'application/json; charset=utf-8' }), reason: 'JSON with a parameter' },
  { header: 'accept', name: 'any', expect: 'valid', apply: () => ({ accept: '*/*' }), reason: 'anything' },
  { header: 'accept', name: 'json-low-q', expect: 'valid', apply: () => ({ accept: 'text/html, application/json;q=0.1' }), reason: 'JSON, if not HTML' },
  {
    header: 'accept',
    name: 'html',
    expect: 'either',
    apply: () => ({ accept: 'text/html' }),
    reason: 'no JSON asked: a 406 with the error body, or JSON anyway',
  },
  {
    header: 'accept',
    name: 'xml',
    expect: 'either',
    apply: () => ({ accept: 'application/xml' }),
    reason: 'no JSON asked: a 406 with the error body, or JSON anyway',
  },
];

// ─── body (the check update) ─────────────────────────────────────────────────────────────────────────

export interface BodyOperator {
  name: string;
  /** `invalid-if-object`: refused where the spec declares an object body (else either); `invalid-if-required`: refused where it marks the body required. */
  expect: 'valid' | 'either' | 'invalid-if-object' | 'invalid-if-required';
  /** The body as sent, from the JSON object the cell would send (carriers included), and its content type. */
  wire: (body: Record<string, unknown>) => { rawBody: string; contentType: string };
  /** Sends a name of its own (a change the read must show) instead of only the carriers. */
  named?: true;
  reason: string;
}

/** Well over a plausible body limit (fastify's default 1 MiB): the whitespace of a valid body. */
export const PADDED_BEYOND_LIMIT = 2 * 1024 * 1024;

const json = 'application/json';
const asJson = (rawBody: string) => ({ rawBody, contentType: json });

export const BODY_OPERATORS: readonly BodyOperator[] = [
  {
    name: 'array',
    expect: 'invalid-if-object',
    wire: (b) => asJson(JSON.stringify([b])),
    reason: 'the object inside an array: a lenient handler applies the first item',
  },
  {
    name: 'string',
    expect: 'invalid-if-object',
    wire: (b) => asJson(JSON.stringify(JSON.stringify(b))),
    reason: 'the object as a JSON string: parsed twice, it applies',
  },
  { name: 'number', expect: 'invalid-if-object', wire: () => asJson('1'), reason: 'a top-level number' },
  { name: 'true', expect: 'invalid-if-object', wire: () => asJson('true'), reason: 'a top-level boolean' },
  { name: 'null', expect: 'invalid-if-object', wire: () => asJson('null'), reason: 'a top-level null, which some handlers read as "no body"' },
  { name: 'empty', expect: 'invalid-if-required', wire: () => asJson(''), reason: 'no body at all, sent as JSON' },
  {
    name: 'json-charset',
    expect: 'valid',
    named: true,
    wire: (b) => ({ rawBody: JSON.stringify(b), contentType: 'application/json; charset=utf-8' }),
    reason: 'RFC 8259 section 11: the same media type; the charset parameter changes nothing',
  },
  {
    name: 'whitespace-padded',
    expect: 'valid',
    named: true,
    wire: (b) => asJson(`\n\t ${JSON.stringify(b)} \r\n`),
    reason: 'RFC 8259: whitespace around a value',
  },
  {
    name: 'text-plain',
    expect: 'either',
    wire: (b) => ({ rawBody: JSON.stringify(b), contentType: 'text/plain' }),
    reason: 'the document names no media type but JSON: 415 or taken',
  },
  {
    name: 'form-urlencoded',
    expect: 'either',
    wire: (b) => ({ rawBody: JSON.stringify(b), contentType: 'application/x-www-form-urlencoded' }),
    reason: 'a form: 415, or taken (a form parser finds no property in it)',
  },
  {
    name: 'padded-beyond-limit',
    expect: 'either',
    wire: (b) => asJson(`${JSON.stringify(b)}${' '.repeat(PADDED_BEYOND_LIMIT)}`),
    reason: 'a valid body of 2 MiB: a target with a limit refuses it (413), one without takes it',
  },
];
