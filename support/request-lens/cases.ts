/**
 * The request lens's cases: the catalogue's operators (operators.ts) at the places the suite knows (the
 * runtime, the check read, the runtimes collection), chosen pairwise rather than as the full product and
 * deterministic by the run's seed. Each case is one request, its value class (`request:<dimension>:…`)
 * and the oracle's expectation. Pure, apart from the random ids and keys the operators make.
 */
import { parseCustomLimit } from '../rate-limit/custom-limits';
import { randomUUID } from 'node:crypto';
import type { ClauseId } from '../document/clauses';
import { askedIn, askHeaders, CLIENT_ASKS, RUNTIME_VERSIONS } from '../document/facts';
import { PLACE } from '../document/places';
import type { CallOptions } from '../http/client';
import type { Config } from '../run/config';
import type { Spec, SpecOperation } from '../spec/spec';
import { templateKey } from '../spec/spec';
import { placeOf, relativeTo, type Target } from '../spec/target';
import { HEADER_OPERATORS, METHOD_OPERATORS, PATH_OPERATORS, type Expect, type HeaderLines, type HeaderOperator } from './operators';
import { pairwise, rotate } from './pairwise';

/** A place of the lens: a GET the spec declares, the path's collection and id, the clause a refusal of an odd spelling of it is judged under. */
export interface LensPlace {
  place: string;
  op: SpecOperation;
  collection: string;
  id?: string;
  /** The clause of "never a 5xx, the right resource" for this place: RT-9 where the document says so (the runtime), else SPEC-9. */
  clause: ClauseId;
  /** The property of a served body that names the resource, and the value it must have. */
  identity?: { property: string; value: string };
}

export interface LensCase {
  dimension: 'method' | 'path' | 'header';
  /** `request:<dimension>:<what>`: the value class the checks are stamped with. */
  valueClass: string;
  name: string;
  at: LensPlace;
  method: string;
  path: string;
  options: CallOptions;
  expect: Expect;
  clause: ClauseId;
  /** Whether the request is an operation the spec declares (its answers judged against it); else only status class and error body. */
  declared: boolean;
  /** The connection may be closed without an answer (an operator's mayDrop). */
  mayDrop?: true;
}

/** The lens's places on this target: those its spec declares and the configuration gives an id for. */
export function lensPlaces(target: Target, config: Config): LensPlace[] {
  const out: LensPlace[] = [];
  const split = (path: string) => path.replace(/\/\{[^}]+\}$/, '');
  if (target.runtimeOp) {
    const id = rotate(RUNTIME_VERSIONS, config.caseSeed, 0);
    out.push({
      place: PLACE.runtime,
      op: target.runtimeOp,
      collection: split(target.runtimePath),
      id,
      clause: 'RT-9',
      identity: { property: 'name', value: id },
    });
  }
  if (target.readCheckOp && target.readPath && config.checkId)
    out.push({ place: PLACE.checkRead, op: target.readCheckOp, collection: split(target.readPath), id: config.checkId, clause: 'SPEC-9' });
  // A collection with a limit of its own (RL-4) is left out: the lens's requests would spend its window and wait it out; the burst tries it.
  const ownLimit = (op: SpecOperation) => parseCustomLimit(op.op.description) ?? parseCustomLimit(op.op.summary);
  for (const op of target.collectionGets.filter((o) => !ownLimit(o)).slice(0, 1))
    out.push({ place: placeOf(target, op)!, op, collection: relativeTo(config.baseUrl, op.path), clause: 'SPEC-9' });
  return out;
}

const pathOf = (p: LensPlace) => (p.id === undefined ? p.collection : `${p.collection}/${encodeURIComponent(p.id)}`);

/** Whether the spec declares a method on the path of a place. */
const declares = (spec: Spec, p: LensPlace, method: string) =>
  spec.operations.some((o) => o.method === method.toLowerCase() && templateKey(o.path) === templateKey(p.op.path));

/**
 * Every undeclared method at every place, with the configured credentials (a write taken is the worry);
 * and each write method once more without an Authorization header, at a place the seed rotates to (never
 * unauthenticated success, AUTH-1). A write on a check goes to an id nobody created: a target that does
 * run an undeclared DELETE must not remove the configured check.
 */
export function methodCases(spec: Spec, places: LensPlace[], seed: number): LensCase[] {
  const cases: LensCase[] = [];
  METHOD_OPERATORS.forEach((m, i) => {
    const at = places.filter((p) => !declares(spec, p, m.method));
    for (const p of at) {
      const path = m.expect === 'refused' && p.place === PLACE.checkRead ? `${p.collection}/${randomUUID()}` : pathOf(p);
      const options: CallOptions = m.body ? { body: {} } : {};
      const common = { dimension: 'method' as const, name: `${m.method} ${path}`, at: p, method: m.method, path, declared: false };
      cases.push({ ...common, valueClass: `request:method:${m.method}`, options, expect: m.expect, clause: 'SPEC-9' });
      if (m.expect === 'refused' && p === rotate(at, seed, i))
        cases.push({
          ...common,
          name: `${m.method} ${path} without an Authorization header`,
          valueClass: `request:method:${m.method}:no-authorization`,
          options: { ...options, headers: { authorization: null } },
          expect: 'refused',
          clause: 'AUTH-1',
        });
    }
  });
  return cases;
}

/**
 * Every path operator at the runtime (the place whose odd ids the document rules on, RT-9), and those
 * whose answer a route decides at one more place the seed rotates to.
 */
export function pathCases(places: LensPlace[], seed: number): LensCase[] {
  const [first, ...others] = places;
  const cases: LensCase[] = [];
  PATH_OPERATORS.forEach((o, i) => {
    // A second place where the route decides the answer (a path no route handles, another version): the rest are the router's, judged at the runtime.
    const second = o.expect === 'no-route' || o.expect === 'either' || o.asWritten;
    const at = [first, ...(second && others.length ? [rotate(others, seed, i)] : [])];
    for (const p of at) {
      const path = o.apply({ collection: p.collection, id: p.id });
      if (path === undefined || path === pathOf(p)) continue;
      const clause: ClauseId = o.expect === 'no-route' ? 'ERR-3' : p.clause;
      // A path no route handles is asked as the clients there are ask it (a browser's Accept and language, none at all): its error is JSON all the same (ERR-3).
      const ask = o.expect === 'no-route' ? rotate(CLIENT_ASKS, seed, i) : CLIENT_ASKS[0];
      const asked = askedIn(ask);
      cases.push({
        dimension: 'path',
        valueClass: `request:path:${o.name}`,
        name: `GET ${path}${asked}`,
        at: p,
        method: 'GET',
        path,
        options: { ...(o.asWritten ? { pathAsWritten: true } : {}), ...(asked ? { headers: askHeaders(ask) } : {}) },
        expect: o.expect,
        clause,
        declared: o.expect === 'same-or-refused',
        ...(o.mayDrop && { mayDrop: true as const }),
      });
    }
  });
  return cases;
}

const HEADERS = ['authorization', 'account', 'accept'] as const;
/** The clause a header's operators are judged under. */
const HEADER_CLAUSE: Record<HeaderOperator['header'], ClauseId> = { authorization: 'AUTH-3', account: 'AUTH-6', accept: 'RT-1' };
const STRENGTH: Record<Expect, number> = { refused: 3, 'no-route': 3, either: 2, 'same-or-refused': 2, valid: 1 };

/** The headers of a row: the request's own, with each operator's lines over them. */
function headerOptions(ops: HeaderOperator[], c: { apiKey: string; accountId: string; accountHeader: string }): CallOptions {
  const headers: Record<string, string | null> = {};
  const repeated: Record<string, string[]> = {};
  for (const op of ops)
    for (const [name, value] of Object.entries(op.apply(c) as HeaderLines)) {
      if (Array.isArray(value)) [headers[name], repeated[name]] = [null, value];
      else headers[name] = value;
    }
  return Object.keys(repeated).length ? { headers, repeated } : { headers };
}

/**
 * The header operators that a target may take, in pairwise rows with
 * the places; the ones it must refuse alone, each at a place the seed rotates to (an invalid value beside
 * another says nothing of either).
 */
export function headerCases(places: LensPlace[], c: { apiKey: string; accountId: string; accountHeader: string }, seed: number): LensCase[] {
  // Each row varies every header (a plain value beside the others is what every other test sends).
  const taken = HEADERS.map((h) => HEADER_OPERATORS.filter((o) => o.header === h && o.expect !== 'refused'));
  const rows: Array<{ ops: HeaderOperator[]; at: LensPlace }> = pairwise([...taken.map((t) => t.length), places.length], seed).map((r) => ({
    ops: r.slice(0, HEADERS.length).map((v, d) => taken[d][v]),
    at: places[r[HEADERS.length]],
  }));
  HEADER_OPERATORS.filter((o) => o.expect === 'refused').forEach((o, i) => rows.push({ ops: [o], at: rotate(places, seed, i) }));
  return rows.map(({ ops, at }) => {
    const strongest = ops.reduce((a, b) => (STRENGTH[b.expect] > STRENGTH[a.expect] ? b : a));
    const accept = HEADER_CLAUSE[strongest.header] === 'RT-1' && at.place !== PLACE.runtime;
    return {
      dimension: 'header',
      valueClass: `request:header:${ops.map((o) => `${o.header}:${o.name}`).join('+')}`,
      name: ops.map((o) => `${o.header} ${o.name}`).join(', '),
      at,
      method: 'GET',
      path: pathOf(at),
      options: headerOptions(ops, c),
      expect: strongest.expect,
      clause: accept ? 'SPEC-9' : HEADER_CLAUSE[strongest.header],
      declared: true,
      ...(ops.some((o) => o.mayDrop) && { mayDrop: true as const }),
    };
  });
}
