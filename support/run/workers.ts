import { availableParallelism } from 'node:os';

/**
 * The default run's workers. A worker costs about half a second of CPU to start. Against the embedded
 * service the tests spend CPU: one per core, at least two (the two checks' update chains side by side).
 * Against a remote target they mostly wait a round trip per request: four, so that the two chains and
 * the other families' tests run side by side whatever the cores.
 */
export const defaultWorkers = (embedded: boolean): number => (embedded ? Math.min(4, Math.max(2, availableParallelism())) : 4);
