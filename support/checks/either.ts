/**
 * A request the document lets a target take or refuse: taken, it must be a declared 2xx whose body
 * matches the spec; refused, a 4xx with the error body; anything else (a 5xx, a redirect) fails.
 */
import type { ClauseId } from '../document/clauses';
import type { Exchange } from '../http/exchange';
import type { SchemaValidator } from '../spec/schema-validator';
import type { Spec, SpecOperation } from '../spec/spec';
import { conform } from './conformance';
import { checkErrorResponse } from './error-checks';
import type { Verdict } from './verdict';

export function judgeTakenOrRefused(
  v: Verdict,
  spec: Spec,
  validator: SchemaValidator,
  op: SpecOperation | undefined,
  ex: Exchange,
  clause: ClauseId,
  what: string,
): 'taken' | 'refused' | 'neither' {
  if (ex.status >= 200 && ex.status < 300) {
    conform({ verdict: v, spec, validator, op, exchange: ex, intent: 'valid', clause });
    return 'taken';
  }
  if (ex.status >= 400 && ex.status < 500) {
    conform({ verdict: v, spec, validator, op, exchange: ex, intent: 'invalid', clause });
    checkErrorResponse({ verdict: v, exchange: ex });
    return 'refused';
  }
  v.fail({
    clause,
    title: `${what}: neither taken nor refused`,
    received: ex.status,
    allowed: 'a 2xx (taken) or a 4xx (refused): the document leaves it open, never a 5xx',
  });
  checkErrorResponse({ verdict: v, exchange: ex });
  return 'neither';
}
