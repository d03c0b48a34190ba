/**
 * Sending one AUTH case at one place and judging the answer: the valid request must be served (AUTH-4),
 * a probe rejected (a 4xx: the probe's clause judges the status), an `either` probe anything but a 5xx.
 * The body of a refusal is ERR-3's, ERR-4's and AUTH-7's, once per place and status, never the probe's
 * clause's as well: a 401 without a JSON body is one failure, not one per AUTH clause beside it.
 */
import type { ContractFixtures } from '../fixtures';
import { conform } from '../checks/conformance';
import { checkErrorResponse } from '../checks/error-checks';
import type { Where } from '../checks/failure';
import { namedUpdateBody, type PlaceRequest } from './requests';
import { probeCredentials, type AuthPlace, type AuthProbe } from './table';
import { refusedProbeCredentials } from '../rate-limit/keys';
import { keepCookies, keptCookieNames, withKeptCookies } from './cookie-jar';

export type AuthFixtures = Pick<ContractFixtures, 'api' | 'contract' | 'verdict' | 'config' | 'target' | 'spec' | 'validator'>;

/** The value class of the valid request. */
export const VALID_CLASS = 'valid';

/** AUTH-4: the configured key and account are served at this place; false where the place turned out unserved (no place to try credentials at). */
export async function sendValid(fx: AuthFixtures, place: AuthPlace, r: PlaceRequest): Promise<boolean> {
  const where: Where = { place: r.place, valueClass: VALID_CLASS };
  const v = fx.verdict.at(where);
  const ex = await fx.api.call(r.method, r.path, r.options);
  keepCookies(ex.url, ex.headers);
  // A target may refuse an empty update although its spec allows one: that is no matter of
  // authentication, so the check's own name is sent instead, and the refusal is noted.
  if (r.op === fx.target.updateOp && JSON.stringify(r.options.body) === '{}' && (ex.status === 400 || ex.status === 422)) {
    v.note(
      'auth-update-body',
      `${r.place}: the target refused the empty body {} with ${ex.status} (its spec allows it); the check's current name was sent instead`,
    );
    const named = await namedUpdateBody(fx.target, (p) => fx.api.call('GET', p), fx.config.checkId!);
    if ('skip' in named) {
      v.fail({ clause: 'AUTH-4', title: `a valid update could not be made: ${named.skip}`, received: ex.status, allowed: 'a 2xx', exchange: ex });
      return true;
    }
    await fx.contract.at(where).send(r.op, r.method, r.path, 'valid', 'AUTH-4', { ...r.options, body: named.body });
    return true;
  }
  // A collection beside the documented operations is ours to borrow, not the document's: one the
  // target does not serve (its spec lists more than it runs) is no place to try credentials at.
  if (place === 'collection' && (ex.status === 404 || ex.status === 405 || ex.status === 501)) {
    v.note('auth-place-unserved', `${r.place}: answered ${ex.status} to a valid request although the spec declares it; not used as an AUTH place`);
    return false;
  }
  conform({ verdict: v, spec: fx.spec, validator: fx.validator, op: r.op, exchange: ex, intent: 'valid', clause: 'AUTH-4' });
  checkErrorResponse({ verdict: v, exchange: ex });
  return true;
}

/** One probe: its credentials (a key the burst does not spend, where it carries a valid one), then the judgement. */
export async function sendProbe(fx: AuthFixtures, place: AuthPlace, r: PlaceRequest, probe: AuthProbe): Promise<void> {
  const where: Where = { place: r.place, valueClass: probe.id };
  // Never the burst's key: a refused request it carries may or may not count, and the burst's window must hold none.
  const spare = refusedProbeCredentials(fx.config).which === 'second' ? fx.config.second : undefined;
  const creds = probeCredentials(probe, place, fx.config, spare, fx.config.second?.accountId);
  const headers = {
    authorization: `Bearer ${creds.apiKey}`,
    [fx.target.accountHeader]: creds.accountId,
    ...probe.headers(creds, fx.target.accountHeader, place),
  };
  const query = probe.query ? { ...r.options.query, ...probe.query(creds) } : r.options.query;
  // A probe the target must refuse goes with the cookies the target set, as from a client that keeps them: they authenticate nothing.
  const cookie = probe.expect === 'rejected' ? withKeptCookies(`${fx.config.baseUrl}${r.path}`, headers.cookie ?? undefined) : headers.cookie;
  if (cookie && cookie !== headers.cookie) {
    headers.cookie = cookie;
    fx.verdict.note(
      'auth-cookies',
      `the target set cookies (${keptCookieNames(`${fx.config.baseUrl}${r.path}`).join(', ')}): every probe it must refuse carried them back`,
    );
  }
  const options = { ...r.options, headers, query };
  // Another method than the place's GET (HEAD) has no operation of the spec and no body: refused with any 4xx, 404 and 405 included (a target need not route it).
  const op = probe.method ? undefined : r.op;
  const ex = await fx.contract.at(where).send(op, probe.method ?? r.method, r.path, probe.expect === 'rejected' ? 'invalid' : 'either', probe.clause, options);
  if (probe.method) return;
  // The contract checked the body already where the place has an operation of the spec; the runtime operation may have none.
  checkErrorResponse({ verdict: fx.verdict.at(where), exchange: ex });
  if (probe.expect === 'either' && (ex.status < 300 || (ex.status >= 400 && ex.status < 500)))
    fx.verdict.at(where).note('auth-finding', `${r.place}: ${probe.name} was ${ex.status < 300 ? 'served' : 'refused'} (${ex.status}); either is allowed`);
}
