import { availableParallelism } from 'node:os';

/**
 * The default run's workers. A worker costs about half a second of CPU to start, and the tests mostly
 * wait on the target: one per core, at least two (the check update's chain takes one while the other
 * runs the rest), at most four (the chain runs in order in one worker whatever the count).
 */
export const defaultWorkers = (): number => Math.min(4, Math.max(2, availableParallelism()));
