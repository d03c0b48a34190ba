/**
 * One case of the request lens sent and judged by its expectation: a refusal is a 4xx with the JSON error
 * body; a request the target may take is never a 5xx, and taken, it is the right resource with a JSON body;
 * another spelling of a path may also be redirected. Whatever the expectation, every error answer gets the
 * error-body checks (ERR-3, ERR-4, ERR-1 for a 404, AUTH-7).
 */
import { conform } from '../checks/conformance';
import { checkErrorResponse } from '../checks/error-checks';
import { show } from '../checks/failure';
import { isJsonContentType } from '../document/rules';
import { PLACE } from '../document/places';
import type { Exchange } from '../http/exchange';
import { isSuiteError } from '../run/suite-error';
import type { ContractFixtures } from '../fixtures';
import type { LensCase } from './cases';

export type LensFixtures = Pick<ContractFixtures, 'api' | 'verdict' | 'spec' | 'validator'>;

const is2xx = (s: number) => s >= 200 && s < 300;
const isRedirect = (ex: Exchange) => ex.status >= 300 && ex.status < 400 && !!ex.headers.location;

export async function sendCase(fx: LensFixtures, c: LensCase): Promise<Exchange | undefined> {
  const v = fx.verdict.at({ place: c.at.place, valueClass: c.valueClass });
  let ex: Exchange;
  try {
    ex = await fx.api.call(c.method, c.path, c.options);
  } catch (e) {
    if (!c.mayDrop || !isSuiteError(e, 'cannot-test')) throw e;
    // Closed without an answer, as RFC 6585 section 5 allows for a request too large: refused, with no body to judge.
    v.pass(c.clause);
    v.note('request-lens', `${c.name}: the connection was closed without an answer (${(e as Error).message.split(': ').pop()})`);
    return undefined;
  }
  // Another spelling of a path (or a path the target may serve) redirected to where it is served: a router's habit, not a refusal.
  if (isRedirect(ex) && c.dimension === 'path' && (c.expect === 'same-or-refused' || c.expect === 'either')) {
    v.pass(c.clause);
    v.note('request-lens', `${c.name}: redirected (${ex.status}) to ${ex.headers.location}; either is allowed`);
    return ex;
  }
  const intent = c.expect === 'refused' || c.expect === 'no-route' ? 'invalid' : c.expect === 'valid' ? 'valid' : 'either';
  // Only a GET the spec declares is judged against its spec; other methods and paths by status class and error body.
  // Another spelling of a path is judged against the spec only where it was served as the path (its 404 is no answer of the spec's operation).
  const op = c.declared && c.method === 'GET' && (c.dimension !== 'path' || is2xx(ex.status)) ? c.at.op : undefined;
  conform({ verdict: v, spec: fx.spec, validator: fx.validator, op, exchange: ex, intent, clause: c.clause });
  if (is2xx(ex.status) && c.expect !== 'refused' && c.expect !== 'no-route' && c.declared) checkServed(v, c, ex);
  // A HEAD answer has no body to judge.
  if (c.method === 'HEAD') return ex;
  // The body of a refusal is judged by ERR-3 and ERR-4 alone, not again by the clause whose case provoked it: one cause, one failure.
  checkErrorResponse({ verdict: v, exchange: ex });
  return ex;
}

/** Served: the runtime's answer is JSON (RT-1) and the runtime asked for (RT-2), whichever spelling of its path or headers asked (the checks' subject). */
function checkServed(verdict: LensFixtures['verdict'], c: LensCase, ex: Exchange): void {
  if (c.at.place !== PLACE.runtime || c.method !== 'GET') return;
  const v = verdict.at({ subject: c.name });
  v.check({
    clause: 'RT-1',
    ok: isJsonContentType(ex.contentType),
    field: 'Content-Type',
    title: 'is not JSON',
    received: ex.contentType || 'none',
    allowed: 'application/json',
    exchange: ex,
  });
  const id = c.at.identity;
  if (!id) return;
  const got = ex.json && typeof ex.json === 'object' ? (ex.json as Record<string, unknown>)[id.property] : undefined;
  v.check({
    clause: 'RT-2',
    ok: got === id.value,
    field: id.property,
    title: 'is not the one its path names: another resource was served',
    received: got,
    allowed: show(id.value),
    exchange: ex,
  });
}
