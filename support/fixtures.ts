/**
 * The contract tests' fixtures: configuration, spec, validator and target once per worker; a verdict and
 * a counting client per test. Tests import `test` and `expect` from here, never from @playwright/test.
 */
import { test as base } from '@playwright/test';
import { ApiClient, type CallOptions } from './client';
import type { ClauseId } from './clauses';
import { getConfig, type Config } from './config';
import { conform, type Intent } from './conformance';
import { describeExchange, type Exchange } from './exchange';
import { observe } from './observation';
import { registerSecret } from './redact';
import { SchemaValidator } from './schema-validator';
import type { Spec, SpecOperation } from './spec';
import { loadSpec } from './spec-cache';
import { resolveTarget, type Target } from './target';
import { Verdict } from './verdict';

export interface Contract {
  /** Sends a request and checks the response against the spec (status declared, body matches). */
  send(op: SpecOperation | undefined, method: string, path: string, intent: Intent, clause: ClauseId, options?: CallOptions): Promise<Exchange>;
}

interface WorkerFixtures {
  config: Config;
  spec: Spec;
  validator: SchemaValidator;
  target: Target;
}

interface TestFixtures {
  verdict: Verdict;
  api: ApiClient;
  contract: Contract;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  config: [
    async ({}, use) => {
      const config = getConfig();
      for (const s of [config.apiKey, config.accountId, config.second?.apiKey, config.second?.accountId]) registerSecret(s);
      await use(config);
    },
    { scope: 'worker' },
  ],
  spec: [async ({ config }, use) => use(await loadSpec(config)), { scope: 'worker' }],
  validator: [async ({ spec }, use) => use(new SchemaValidator(spec)), { scope: 'worker' }],
  target: [async ({ spec, config }, use) => use(resolveTarget(spec, config)), { scope: 'worker' }],

  verdict: async ({ config }, use, info) => {
    const verdict = new Verdict(info, config.strictSpec);
    await use(verdict);
    if (info.status !== 'skipped') verdict.settle(info.status === 'passed');
  },

  // Depends on verdict so that it is torn down first: the requests are attached before the verdict throws.
  api: async ({ request, config, target, verdict: _verdict }, use, info) => {
    const credentials = { apiKey: config.apiKey, accountId: config.accountId, accountHeader: target.accountHeader };
    const api = new ApiClient(request, config.baseUrl, credentials, info, config.rateLimit);
    await use(api);
    info.annotations.push({ type: 'requests', description: String(api.log.length) });
    if (api.log.length) {
      await info.attach('observations', { body: JSON.stringify(api.log.map((e) => observe(e, config.baseUrl))), contentType: 'application/json' });
      await info.attach('requests', { body: api.log.map((e) => describeExchange(e)).join('\n\n────────\n\n'), contentType: 'text/plain' });
    }
  },

  contract: async ({ api, verdict, spec, validator }, use) => {
    await use({
      async send(op, method, path, intent, clause, options) {
        const exchange = await api.call(method, path, options);
        conform(verdict, spec, validator, op, exchange, intent, clause);
        return exchange;
      },
    });
  },
});

export { expect } from '@playwright/test';

/** The annotation that ties a test to the clauses it verifies. */
export const clauses = (...ids: ClauseId[]) => ids.map((id) => ({ type: 'clause', description: id }));
