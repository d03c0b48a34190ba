/**
 * Every fault the self-test runs, in one shape: the MOCK_FAULT string, the catches it must produce
 * (all of them), the suite files that can produce them, and its reach: the responses of the reference
 * it changes. The reach decides which faults may share a run (batch-plan.ts), the catches decide
 * whether a run caught a fault (catching.ts).
 */
import { idShape } from '../faults/outside/runtime-id-shape';
import type { ClauseId } from '../../support/document/clauses';
import type { FaultExpectation, FaultList, GeneratedFault } from '../faults/types';
import { specDropPart } from '../faults/generated/spec';
import { NAMED_FAULTS } from '../faults/catalogue/faults';

/**
 * What a run's failures must include for the fault to count as caught: a failure of this clause and,
 * where given, stamped with this place and value class, about a response of this status.
 */
export interface Catch {
  clause: ClauseId;
  place?: string;
  valueClass?: string;
  status?: number;
}

export interface FaultCase {
  fault: string;
  /** For the kill ratio: the generated family (file name), or the hand-written list. */
  family: string;
  source: FaultList | 'generated';
  direction?: 'loose' | 'strict';
  catches: Catch[];
  files: string[];
  env?: Record<string, string>;
  /**
   * What the fault changes, as `place#aspect` (`*` for every place or aspect; a bare place is all of
   * it), or `alone` when it changes what every test relies on (the rate limit, the environment, the
   * whole spec). Aspects: `auth` which requests with bad credentials are refused, `known` the answers
   * to the documented runtime versions, `unknown` the answers to unknown ids, `valid` the answers to
   * update and read requests (validation and the stored check), `limit` the rate limiter once a key is
   * over it and its headers, a status the error bodies of that status, and for `spec` a part of the
   * document.
   */
  reach: string[];
}

/** Places of the API (MOCK_FAULT's <place>, the suite's route roles). */
export const API_PLACES = ['runtime', 'check-read', 'check-update'] as const;
const STATE = ['check-update#valid', 'check-read#valid'];

/**
 * The reach of a parameterized fault (kind:arg:…), read from its string; undefined for a named fault.
 * Errors and authentication change some statuses of one place; the update kinds change the stored check
 * (its update and its read); the limiter and the agent are one thing each.
 */
function reachOfKind(fault: string): string[] | undefined {
  const [kind, ...args] = fault.split(':').map(decodeURIComponent);
  const place = (p: string) => (p === 'any' ? '*' : p);
  switch (kind) {
    case 'errbody':
      return [`${place(args[0])}#${args[1] === 'any' ? '*' : args[1]}`];
    case 'auth-skip':
      return [`${place(args[0])}#auth`];
    // A key offered outside Authorization, on every route.
    case 'auth-alt':
    case 'auth-method':
      return ['*#auth'];
    // What an update refused for its credentials or query stores: the check; and an auth fault on the
    // update would serve the refused request instead (no refusal left to leak).
    case 'apply-before':
      return args[0] === 'query' ? STATE : [...STATE, 'check-update#auth'];
    case 'auth-strict':
      return args[0] === 'spec' ? ['alone'] : [place(args[0])];
    case 'accept':
    case 'refuse':
    case 'leak':
      return STATE;
    // One node of the served document: its part, and the item the spec tests name.
    case 'spec-drop':
    case 'spec-add':
      return [`spec#${specDropPart(fault) ?? 'dropped'}`];
    // The answers to ids nobody created on one route (its 404s among them).
    case 'unknown-check':
      // Another account's check taken on the update: the stored check changes too.
      return args[1] === 'foreign' && args[0] === 'check-update' ? [`${args[0]}#unknown`, ...STATE] : [`${args[0]}#unknown`];
    // One field of the runtime bodies (the one route and the list), or the answers to one class of unknown ids.
    case 'rt-field':
      return [`runtime#known:${args[0]}`, `GET /v1/runtimes#known:${args[0]}`];
    case 'rt-unknown':
      return [`runtime#unknown:${args[0]}`];
    // One unknown id: a part of its class's answers (the reference decides the class by the id's shape).
    case 'rt-id':
      return [`runtime#unknown:${idShape(encodeURIComponent(args[0]), args[0])}/${args[0]}`];
    // The update's answers to bodies that are no JSON object: nothing stored changes.
    case 'take-body':
      return ['check-update#valid'];
    // A limit one off moves where every test's own requests would meet a 429: it changes what all rely on.
    case 'rl-limit':
    case 'rl-later-limit':
      return ['alone'];
    // The limiter past its limit (a route left unlimited) or its headers: only the rate-limit tests look.
    case 'rl-exempt':
    case 'rl-headers':
      return ['*#limit'];
    // One endpoint while the agent runs: the drain is another part of the agent.
    case 'agent-down':
      return [`agent#running:${args[0]}`];
    case 'agent-ready-late':
    case 'agent-health-dies':
    case 'agent-dies-late':
      return ['agent'];
    default:
      return undefined;
  }
}

/** The reach each named fault's record gives it (unset: alone). */
const NAMED_REACH = new Map(NAMED_FAULTS.map((f) => [f.name, f.reach ?? ['alone']]));

/** What a fault string changes: a kind's row says it in its arguments, a named fault in its record; a name no record knows runs alone. */
export function reachOf(fault: string): string[] {
  const parts = fault.split(',');
  if (parts.length > 1) return [...new Set(parts.flatMap(reachOf))];
  return reachOfKind(fault) ?? NAMED_REACH.get(fault) ?? ['alone'];
}

/** errbody:<place>:<status>:… is about responses of that status: its failures are too. */
function statusOf(fault: string): number | undefined {
  const [kind, , status] = fault.split(':');
  return kind === 'errbody' && /^\d{3}$/.test(status ?? '') ? Number(status) : undefined;
}

/** A named fault of a list: the hand-written ones are grouped by the family their name starts with, the others by their list. */
export function fromNamed(f: FaultExpectation, list: FaultList = 'hand-written'): FaultCase {
  return {
    fault: f.fault,
    family: list === 'hand-written' ? familyOfName(f.fault) : list,
    source: list,
    catches: f.clauses.map((clause) => ({ clause })),
    files: f.files,
    env: f.env,
    reach: reachOf(f.fault),
  };
}

export function fromGenerated(f: GeneratedFault, family: string): FaultCase {
  const c: Catch = { clause: f.clause };
  if (f.place) c.place = f.place;
  if (f.valueClass) c.valueClass = f.valueClass;
  const status = statusOf(f.fault);
  if (status) c.status = status;
  return {
    fault: f.fault,
    family,
    source: 'generated',
    direction: f.direction,
    catches: [c, ...(f.also ?? []).map((clause) => ({ ...c, clause }))],
    files: f.files,
    env: f.env,
    reach: f.env && Object.keys(f.env).length ? ['alone'] : reachOf(f.fault),
  };
}

function familyOfName(fault: string): string {
  const head = fault.replace(/^ind\d*-/, '').split('-')[0];
  return ({ swagger: 'spec', fo: 'cu', err: 'errors' } as Record<string, string>)[head] ?? head;
}

export const describeCatch = (c: Catch) => [c.clause, c.place, c.valueClass, c.status].filter((x) => x !== undefined).join(' · ');
