/**
 * Response conformance, applied to every response a contract test receives: the status must be one the
 * spec declares for the operation (see CLAUSES.md on spec drift) and the body must match the schema the
 * spec declares for that status and content type.
 */
import type { ClauseId } from '../document/clauses';
import type { Exchange } from '../http/exchange';
import { oneLine } from '../http/exchange';
import { escapePointer, pointerTokens, resolvePointer, type Spec, type SpecOperation } from '../spec/spec';
import type { SchemaValidator } from '../spec/schema-validator';
import type { Verdict } from './verdict';

export type Intent = 'valid' | 'invalid';

/** The declared response key that covers a status: exact, then 4XX-style range, then default. */
export function declaredResponseKey(op: SpecOperation, status: number): string | undefined {
  const keys = Object.keys(op.op.responses ?? {});
  return [String(status), `${String(status)[0]}XX`, `${String(status)[0]}xx`, 'default'].find((k) => keys.includes(k));
}

const canonical = new WeakMap<object, Map<string, string | undefined>>();

/**
 * Follows `$ref`s met on the way, so the pointer names where the schema really is. Remembered per
 * document: every answer of an operation asks the same question.
 */
export function canonicalPointer(raw: unknown, segments: string[]): string | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  let known = canonical.get(raw);
  if (!known) canonical.set(raw, (known = new Map()));
  const key = segments.join('\0');
  if (!known.has(key)) known.set(key, followRefs(raw, segments));
  return known.get(key);
}

function followRefs(raw: unknown, segments: string[]): string | undefined {
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

function mediaTypeKey(content: Record<string, unknown>, contentType: string): string | undefined {
  const mime = contentType.split(';')[0].trim().toLowerCase();
  const keys = Object.keys(content);
  return (
    keys.find((k) => k.toLowerCase() === mime) ??
    keys.find((k) => /json/i.test(k) && /json/i.test(mime)) ??
    keys.find((k) => k === `${mime.split('/')[0]}/*`) ??
    keys.find((k) => k === '*/*')
  );
}

export function conform(
  verdict: Verdict,
  spec: Spec,
  validator: SchemaValidator,
  op: SpecOperation | undefined,
  ex: Exchange,
  intent: Intent,
  clause: ClauseId,
): void {
  const status = ex.status;
  const where = oneLine(ex);
  if (status >= 500) {
    verdict.fail(clause, `server error instead of an answer (${where})`, status, intent === 'valid' ? 'a 2xx status' : 'a 4xx status', ex);
    return;
  }
  if (intent === 'valid' && !(status >= 200 && status < 300)) {
    verdict.fail(clause, `a valid request was not accepted (${where})`, status, 'a 2xx status the spec declares', ex);
    return;
  }
  if (intent === 'invalid' && !(status >= 400 && status < 500)) {
    verdict.fail(clause, `an invalid request was not rejected (${where})`, status, 'a 4xx status', ex);
    return;
  }
  if (!op) return; // the operation's absence from the spec is reported by the SPEC clauses
  const key = declaredResponseKey(op, status);
  const declared = Object.keys(op.op.responses ?? {});
  const operation = `${op.method.toUpperCase()} ${op.path}`;
  if (!key) {
    if (intent === 'valid') verdict.fail(clause, `${operation} answered a status its spec does not declare (${where})`, status, declared.join(', '), ex);
    else verdict.drift(clause, operation, status, declared, ex);
    return;
  }
  verdict.pass(clause);
  const pointer = canonicalPointer(spec.raw, [...pointerTokens(op.pointer), 'responses', key, 'content']);
  const content = pointer ? resolvePointer(spec.raw, pointer) : undefined;
  if (!content || typeof content !== 'object' || Object.keys(content).length === 0) return; // no body declared
  const media = mediaTypeKey(content, ex.contentType);
  if (!media) {
    verdict.fail(
      clause,
      `${operation} ${status}: content type not declared by the spec (${where})`,
      ex.contentType || 'none',
      Object.keys(content).join(', '),
      ex,
    );
    return;
  }
  if (!/json/i.test(media)) return;
  if (ex.json === undefined) {
    verdict.fail(clause, `${operation} ${status}: body is not JSON (${where})`, ex.text.slice(0, 200), `JSON matching the spec's ${media} schema`, ex);
    return;
  }
  const schemaPointer = canonicalPointer(spec.raw, [...pointerTokens(pointer!), media, 'schema']);
  if (!schemaPointer) return;
  for (const problem of validator.validate(schemaPointer, ex.json)) {
    verdict.fail(
      clause,
      `${operation} ${status}: body does not match the spec schema at ${problem.path} (${where})`,
      valueAt(ex.json, problem.path),
      problem.message,
      ex,
    );
  }
}

const valueAt = (body: unknown, path: string) => (path === '/' ? body : resolvePointer(body, path));
