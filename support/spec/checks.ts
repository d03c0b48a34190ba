/**
 * SPEC as data: every check of the served specification, one row each, with its title (the test's:
 * reports and the self-test's records name tests by it) and the clauses it verifies. A check records
 * into the verdict (a failed one does not stop the rest) and is run as a test's body (see served-checks.ts).
 */
import type { ClauseId } from '../document/clauses';
import type { ContractFixtures } from '../fixtures';
import { bearerSecurity, checkUpdateOperation, runtimeOperation, underV1 } from './operation-checks';
import { errorBodySchemas, runtimeSchema } from './schema-checks';
import { specServed, swaggerNotCurrent } from './served-checks';

export type SpecContext = Pick<ContractFixtures, 'api' | 'config' | 'spec' | 'target' | 'validator' | 'verdict'>;

export interface SpecCheck {
  title: string;
  clauses: readonly ClauseId[];
  check: (ctx: SpecContext) => void | Promise<void>;
}

export const SPEC_CHECKS: readonly SpecCheck[] = [
  { title: 'openapi.json is served and is a valid OpenAPI 3.x document', clauses: ['SPEC-1'], check: specServed },
  { title: 'the documented operations live under /v1/', clauses: ['SPEC-2'], check: underV1 },
  { title: 'operations declare one security scheme, HTTP bearer', clauses: ['SPEC-3'], check: bearerSecurity },
  { title: 'the runtime operation is described', clauses: ['SPEC-4'], check: runtimeOperation },
  { title: 'the check update operation is deprecated and described', clauses: ['SPEC-5'], check: checkUpdateOperation },
  { title: 'the Runtime schema', clauses: ['SPEC-6'], check: runtimeSchema },
  { title: "the runtime operation's 404 and 429 schemas match the documented error bodies", clauses: ['SPEC-7'], check: errorBodySchemas },
  { title: 'swagger.json is not the current specification', clauses: ['SPEC-8'], check: swaggerNotCurrent },
];
