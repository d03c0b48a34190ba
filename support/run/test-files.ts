/** Each family's test file, as a run names it: the one place these names are written. */
import { basename } from 'node:path';

export const TEST_FILES = {
  agent: 'tests/agent.spec.ts',
  checkUpdate: 'tests/check-update.spec.ts',
  auth: 'tests/credentials.spec.ts',
  errors: 'tests/errors.spec.ts',
  requests: 'tests/requests.spec.ts',
  rateLimit: 'tests/rate-limit.spec.ts',
  runtime: 'tests/runtime.spec.ts',
  spec: 'tests/spec.spec.ts',
  burst: 'tests/rate-limit-burst.spec.ts',
} as const;

/** Matches the file wherever a path to it starts (Playwright's patterns and reports hold absolute paths). */
export const fileMatcher = (file: string): RegExp => new RegExp(`${basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
