// What a client sees of the runtimes, and how an id finds one.
import type { Runtime } from './data';

/** One runtime as served (the document's Runtime): a fresh object, the data stays untouched. */
export const present = (rt: Runtime): Record<string, unknown> => ({ ...rt, dependencies: { ...rt.dependencies } });

/** The runtime an id names: its name exactly, or none (ids are not trimmed, folded or parsed). */
export const lookUp = (catalogue: readonly Runtime[], id: string): Runtime | undefined => catalogue.find((r) => r.name === id);
