/**
 * The family's fixtures, on top of the suite's (support/fixtures.ts): the session, once per worker and
 * opened by the first test that needs it, and the family's entry points per test.
 */
import { test as base } from '../fixtures';
import { ApiClient } from '../http/client';
import { CheckUpdateFamily } from './family';
import { CheckSessions, type PlainClient } from './session';

export const test = base.extend<{ checkUpdate: CheckUpdateFamily }, { checkSessions: CheckSessions }>({
  checkSessions: [
    async ({ config, target }, use) => {
      // The worker's own requests (the restore after the tests, when the final test did not run).
      const plainClient: PlainClient = () => {
        const credentials = { apiKey: config.apiKey, accountId: config.accountId, accountHeader: target.accountHeader };
        const client = new ApiClient(config.baseUrl, credentials, undefined, config.rateLimit);
        return (method, path, options) => client.call(method, path, options);
      };
      await use(new CheckSessions(config, target, plainClient));
    },
    { scope: 'worker', box: 'self' },
  ],
  checkUpdate: [
    async ({ checkSessions, api, contract, verdict, target, spec, validator, config }, use) => {
      await use(new CheckUpdateFamily({ api, contract, verdict, target, spec, validator, config }, checkSessions));
    },
    { box: 'self' },
  ],
});
