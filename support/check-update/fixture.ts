/**
 * The family's fixtures, on top of the suite's (support/fixtures.ts): the sessions, once per worker and
 * configuration and opened by the first test that needs them, and the family's entry points per test.
 */
import { test as base } from '../fixtures';
import { ApiClient } from '../http/client';
import type { Config } from '../run/config';
import { CheckUpdateFamily } from './family';
import { checkSessions, type CheckSessions } from './session';

export const test = base.extend<{ checkSessions: CheckSessions; checkUpdate: CheckUpdateFamily }, { sessionsPerConfiguration: Map<Config, CheckSessions> }>({
  sessionsPerConfiguration: [async ({}, use) => use(new Map()), { scope: 'worker', box: 'self' }],
  checkSessions: [
    async ({ config, target, reserve, sessionsPerConfiguration }, use) => {
      let sessions = sessionsPerConfiguration.get(config);
      if (!sessions) {
        // Requests of the sessions' own, outside any test's client: the restore when the final test did not run.
        const credentials = { apiKey: config.apiKey, accountId: config.accountId, accountHeader: target.accountHeader };
        const client = new ApiClient(config.baseUrl, credentials, undefined, config.rateLimit, reserve);
        sessionsPerConfiguration.set(config, (sessions = checkSessions(config, target, (method, path, options) => client.call(method, path, options))));
      }
      await use(sessions);
    },
    { box: 'self' },
  ],
  checkUpdate: [
    async ({ checkSessions, api, contract, verdict, target, spec, validator, config }, use) => {
      await use(new CheckUpdateFamily({ api, contract, verdict, target, spec, validator, config }, checkSessions));
    },
    { box: 'self' },
  ],
});
