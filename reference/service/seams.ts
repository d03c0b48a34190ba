// Every seam of the service in one object: built afresh by buildService, handed to each plugin from
// outside (as its options) before the service's own plugins are registered, then read by them.
import type { FastifyInstance } from 'fastify';
import { authSeams, type AuthSeams } from './auth/seams';
import { checkSeams, type CheckSeams } from './checks/seams';
import { errorSeams, type ErrorSeams } from './errors/seams';
import { rateLimitSeams, type RateLimitSeams } from './rate-limit/seams';
import { runtimeSeams, type RuntimeSeams } from './runtimes/seams';

export interface Seams {
  auth: AuthSeams;
  checks: CheckSeams;
  errors: ErrorSeams;
  rateLimit: RateLimitSeams;
  runtimes: RuntimeSeams;
}

export const makeSeams = (): Seams => ({
  auth: authSeams(),
  checks: checkSeams(),
  errors: errorSeams(),
  rateLimit: rateLimitSeams(),
  runtimes: runtimeSeams(),
});

/** A plugin from outside: registered first, unencapsulated, with the seams as its options. */
export type OutsidePlugin = (app: FastifyInstance, seams: Seams) => Promise<void>;
