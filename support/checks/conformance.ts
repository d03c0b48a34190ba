/**
 * Response conformance, for every response a contract test receives: the status class (a valid request
 * taken, an invalid one refused, never a 5xx) is the rule of the clause the caller names; whether the
 * response is what the target's own spec declares is SPEC-9, whichever test provoked it, so a body that
 * breaks its schema fails SPEC-9 once, not AUTH-4 and RT-1 besides.
 */
import type { ClauseId } from '../document/clauses';
import type { Exchange } from '../http/exchange';
import { escapePointer, pointerTokens, resolvePointer, type Spec, type SpecOperation } from '../spec/spec';
import type { SchemaValidator } from '../spec/schema-validator';
import type { Verdict } from './verdict';

/** `either`: the document lets the target take the request or refuse it. */
export type Intent = 'valid' | 'invalid' | 'either';

/** The declared response key that covers a status: exact, then 4XX-style range, then default. */
export function declaredResponseKey(op: SpecOperation, status: number): string | undefined {
  const keys = Object.keys(op.op.responses ?? {});
  return [String(status), `${String(status)[0]}XX`, `${String(status)[0]}xx`, 'default'].find((k) => keys.includes(k));
}

// Every response walks the same few paths of a document that does not change during a run: walked once each.
const walked = new WeakMap<object, Map<string, string | undefined>>();

/** Follows the `$ref`s met on the way, so the pointer names where the schema really is (and its validator is compiled once). */
export function canonicalPointer(raw: unknown, segments: string[]): string | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  let paths = walked.get(raw);
  if (!paths) walked.set(raw, (paths = new Map()));
  const key = segments.join('\0');
  if (!paths.has(key)) paths.set(key, walk(raw, segments));
  return paths.get(key);
}

function walk(raw: object, segments: string[]): string | undefined {
  let pointer = '';
  for (const segment of segments) {
    let node = resolvePointer(raw, pointer);
    for (let hops = 0; node && typeof node === 'object' && typeof node.$ref === 'string' && hops < 10; hops++) {
      if (!node.$ref.startsWith('#')) return undefined;
      pointer = node.$ref.slice(1);
      node = resolvePointer(raw, pointer);
    }
    if (!node || typeof node !== 'object' || !(segment in node)) return undefined;
    pointer = `${pointer}/${escapePointer(segment)}`;
  }
  return pointer;
}

/**
 * The declared media type a response's Content-Type stands under: the same type (parameters such as
 * charset aside, any case), else a declared range. Another JSON type is another media type: a client
 * made from the spec that was promised application/problem+json does not read application/json.
 */
function mediaTypeKey(content: Record<string, unknown>, contentType: string): string | undefined {
  const mime = contentType.split(';')[0].trim().toLowerCase();
  const keys = Object.keys(content);
  const essence = (k: string) => k.split(';')[0].trim().toLowerCase();
  return keys.find((k) => essence(k) === mime) ?? keys.find((k) => essence(k) === `${mime.split('/')[0]}/*`) ?? keys.find((k) => essence(k) === '*/*');
}

/** A response to judge against the target's spec, and the clause the request tries. */
export interface Conformance {
  verdict: Verdict;
  spec: Spec;
  validator: SchemaValidator;
  op: SpecOperation | undefined;
  exchange: Exchange;
  intent: Intent;
  clause: ClauseId;
}

export function conform({ verdict, spec, validator, op, exchange: ex, intent, clause }: Conformance): void {
  const status = ex.status;
  // Where the document leaves it open, the answer tells which it was: taken, it is judged as a valid request; refused, as an invalid one.
  const judged = intent === 'either' ? (status >= 200 && status < 300 ? 'valid' : 'invalid') : intent;
  const wanted = judged === 'valid' ? '2xx' : '4xx';
  if (status >= 500 || Math.floor(status / 100) !== Number(wanted[0])) {
    if (intent === 'either') return verdict.fail({ clause, title: 'neither taken nor refused', received: status, allowed: EITHER, exchange: ex });
    const title =
      status >= 500 ? 'server error instead of an answer' : intent === 'valid' ? 'a valid request was not accepted' : 'an invalid request was not rejected';
    const allowed = `a ${wanted} status${status < 500 && intent === 'valid' ? ' the spec declares' : ''}`;
    return verdict.fail({ clause, title, received: status, allowed, expectedStatus: wanted, exchange: ex });
  }
  verdict.pass(clause);
  if (!op) return; // the operation's absence from the spec is reported by the SPEC clauses
  // SPEC-9: the response is one the spec declares. Each finding is keyed by operation, status and what broke, so that the reports keep it once.
  const key = declaredResponseKey(op, status);
  const declared = Object.keys(op.op.responses ?? {}).join(', ');
  const operation = `${op.method.toUpperCase()} ${op.path}`;
  const finding = (aspect: string, title: string, received: unknown, allowed: string, field?: string) =>
    ({ clause: 'SPEC-9', field, title, received, allowed, exchange: ex, key: `${operation} ${status} ${aspect}` }) as const;
  const fail = (...f: Parameters<typeof finding>) => verdict.fail(finding(...f));
  if (!key) {
    if (judged === 'valid') return fail('status', `${operation} answered a status its spec does not declare`, status, declared);
    const warning = `${operation} answered ${status}; the spec declares ${declared || 'nothing'}`;
    return verdict.drift(finding('status', 'status not declared by the spec (STRICT_SPEC=on)', status, declared), warning);
  }
  verdict.pass('SPEC-9');
  const pointer = canonicalPointer(spec.raw, [...pointerTokens(op.pointer), 'responses', key, 'content']);
  const content = pointer ? resolvePointer(spec.raw, pointer) : undefined;
  if (!content || typeof content !== 'object' || Object.keys(content).length === 0) return; // no body declared
  const media = mediaTypeKey(content, ex.contentType);
  if (!media)
    return fail('content-type', `${operation} ${status}: content type not declared by the spec`, ex.contentType || 'none', Object.keys(content).join(', '));
  if (!/json/i.test(media)) return;
  if (ex.json === undefined) return fail('body', `${operation} ${status}: body is not JSON`, ex.text.slice(0, 200), `JSON matching the spec's ${media} schema`);
  const schemaPointer = canonicalPointer(spec.raw, [...pointerTokens(pointer!), media, 'schema']);
  // A rule broken by every item of an array is one finding of this response.
  const rules = new Set<string>();
  for (const problem of schemaPointer ? validator.validate(schemaPointer, ex.json) : []) {
    if (rules.has(problem.rule) || !rules.add(problem.rule)) continue;
    const received = problem.path === '/' ? ex.json : resolvePointer(ex.json, problem.path);
    // The body's field by its JSON pointer, as ajv keeps an error's instancePath; the body itself has none.
    const field = problem.path === '/' ? undefined : problem.path;
    const title = `${field ? '' : 'the body '}does not match the spec schema of ${operation} ${status}`;
    fail(`schema ${problem.rule}`, title, received, problem.message, field);
  }
}

const EITHER = 'a 2xx (taken) or a 4xx (refused): the document leaves it open, never a 5xx';
