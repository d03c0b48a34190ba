// The seams of this part of the service: its rules as data and functions, read where they apply, so a
// plugin from outside (REFERENCE_PLUGINS) may change one before the service's own plugins are registered.
import { RUNTIMES, type Runtime } from './data';
import { lookUp, present } from './view';

/** A route's limit of its own, as @fastify/rate-limit takes it in the route's config. */
export interface RouteLimit {
  max: number;
  /** In milliseconds. */
  timeWindow: number;
}

export const RUNTIME_LIST = '/v1/runtimes';
export const RUNTIME_ROUTE = '/v1/runtimes/:id';
/** The list's own limit, as its description in the published spec states it: 20 requests per 10 s. */
export const RUNTIME_LIST_LIMIT: RouteLimit = { max: 20, timeWindow: 10_000 };

export interface RuntimeSeams {
  /** The runtimes served, newest first: the list, and what an id is looked up in. */
  catalogue: readonly Runtime[];
  /** The runtime an id names, or none (404). */
  find: (id: string) => Runtime | undefined;
  /** What a client sees of a runtime: a fresh object, the Runtime of the document. */
  present: (rt: Runtime) => Record<string, unknown>;
  /** The limit a runtime route (by its URL) has of its own, or none: the global limit then applies. */
  ownLimit: (url: string) => RouteLimit | undefined;
  /** The media type a runtime is served as. */
  mediaType: string;
}

export const runtimeSeams = (): RuntimeSeams => {
  const seams: RuntimeSeams = {
    catalogue: RUNTIMES,
    // Read at call time: a catalogue replaced from outside is the one looked up in.
    find: (id) => lookUp(seams.catalogue, id),
    present,
    ownLimit: (url) => (url === RUNTIME_LIST ? { ...RUNTIME_LIST_LIMIT } : undefined),
    mediaType: 'application/json; charset=utf-8',
  };
  return seams;
};
