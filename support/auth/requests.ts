/**
 * An AUTH place as the requests to send there: GETs, and the update with a body that would be taken, so
 * only the credentials decide: `{}` where the spec lets it (it changes nothing a parallel check-update
 * test could see), else the check's own state as just read.
 */
import { RUNTIME_VERSIONS } from '../document/facts';
import type { CallOptions } from '../http/client';
import type { Exchange } from '../http/exchange';
import { restoreBody, writableProperties, type CheckState } from '../check-update/state';
import { requiresFullBody, vocabularyOf } from '../check-update/vocabulary';
import { autoSubscribeParam } from '../check-update/session';
import type { Config } from '../run/config';
import type { SpecOperation } from '../spec/spec';
import { fillPath, jsonBodySchema, placeOf, relativeTo, type Target } from '../spec/target';
import type { AuthPlace } from './table';

export interface PlaceRequest {
  /** The place the checks are stamped with (`runtime`, `GET /v1/runtimes`, …). */
  place: string;
  op?: SpecOperation;
  method: string;
  path: string;
  options: CallOptions;
}

export type Resolved = { requests: PlaceRequest[] } | { skip: string };

/** Reads a path with the configured credentials. */
export type Read = (path: string) => Promise<Exchange>;

/** The boolean query parameter of the update (auto-subscribe to alert channels), sent false. */
export function updateQuery(target: Target): Record<string, string> | undefined {
  const name = autoSubscribeParam(target);
  return name ? { [name]: 'false' } : undefined;
}

/** Whether the update body may be `{}`: no required property and no minimum property count. */
const emptyBodyAllowed = (target: Target) => !requiresFullBody(target) && !((jsonBodySchema(target.updateOp)?.minProperties ?? 0) > 0);

type Body = { body: CheckState } | { skip: string };

/** The check's state as it is now, reduced to `keep` (its writable properties by default). */
async function currentState(target: Target, read: Read, checkId: string, keep?: string[]): Promise<Body> {
  const ex = await read(fillPath(target.readPath!, checkId));
  if (ex.status !== 200 || !ex.json || typeof ex.json !== 'object')
    return { skip: `the check ${checkId} could not be read (${ex.status}), so no valid update body is known` };
  return { body: restoreBody(ex.json as CheckState, writableProperties(target.updateOp), keep) };
}

/**
 * For a target that refuses `{}` although its spec allows it: the check's current name, as read, so
 * that the credentials alone still decide. (A check-update test running beside it may change the name
 * in between; that is why `{}` comes first.)
 */
export async function namedUpdateBody(target: Target, read: Read, checkId: string): Promise<Body> {
  const name = vocabularyOf(target).name;
  if (!name || !target.readPath) return { skip: 'the update body has no name property to send instead of {}' };
  return currentState(target, read, checkId, [name]);
}

export async function requestsAt(place: AuthPlace, target: Target, config: Config, read: Read): Promise<Resolved> {
  // Only the runtime operation may be missing from the spec: it is called on the document's path all the same.
  const only = (op: SpecOperation | undefined, method: string, path: string, options: CallOptions = {}): Resolved => ({
    requests: [{ place: placeOf(target, op) ?? 'runtime', op, method, path, options }],
  });
  switch (place) {
    case 'runtime':
      return only(target.runtimeOp, 'GET', fillPath(target.runtimePath, RUNTIME_VERSIONS[1]));
    case 'check-read': {
      if (!target.readCheckOp || !target.readPath)
        return { skip: "the target's spec declares no GET of a check (the path of the update): no check read to probe" };
      if (!config.checkId) return { skip: 'CHECK_ID is not set: no check to read' };
      return only(target.readCheckOp, 'GET', fillPath(target.readPath, config.checkId));
    }
    case 'check-update': {
      if (!target.updateOp || !target.updatePath) return { skip: "the target's spec has no check update whose body has frequencyOffset (see SPEC-5)" };
      if (!config.checkId) return { skip: 'CHECK_ID is not set: the update is sent only to a check named by CHECK_ID' };
      if (!emptyBodyAllowed(target) && !target.readPath)
        return { skip: 'the update needs a whole body and the spec declares no GET of a check to take it from' };
      // A body the update would take from the key's own account: `{}`, or the check's current writable state.
      const made = emptyBodyAllowed(target) ? { body: {} } : await currentState(target, read, config.checkId);
      if ('skip' in made) return made;
      return only(target.updateOp, target.updateMethod, fillPath(target.updatePath, config.checkId), { body: made.body, query: updateQuery(target) });
    }
    case 'collection': {
      if (!target.collectionGets.length)
        return { skip: "the target's spec has no parameterless GET of the runtime or check collection: no other GET to probe" };
      const requests = target.collectionGets.map((op) => ({
        place: placeOf(target, op)!,
        op,
        method: 'GET',
        path: relativeTo(config.baseUrl, op.path),
        options: {},
      }));
      return { requests };
    }
  }
}
