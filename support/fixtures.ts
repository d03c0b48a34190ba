/**
 * The contract tests' fixtures: the configuration, and once per worker and configuration its spec,
 * validator and target; a verdict and a counting client per test. Test files import `test` from
 * support/test.ts (these and every family's).
 */
// Playwright's root test, without its browser fixtures: `test` from @playwright/test sets up and tears
// down trace recording and browser options around every test, each a step with a captured stack trace:
// 7 ms more per test (`npm run bench`, fixture cost): 0.4 s of a default run's 3.5 s (63 tests; the
// run would leave 2.5 times the floor) and 16 s of the self-test's run of every fault (2,258 tests).
// The suite drives no browser; its HTTP client is its own.
import { contractReserve } from './rate-limit/keys';
import { _baseTest as base } from '@playwright/test';
import { ApiClient, type CallOptions } from './http/client';
import { clauseTags, type ClauseId } from './document/clauses';
import { getConfig, type Config } from './run/config';
import { conform, type Intent } from './checks/conformance';
import { describeExchange, type Exchange, type SecretNames } from './http/exchange';
import { observations } from './http/observation';
import { registerSecret } from './http/redact';
import { runFiles, useRunFiles } from './run/run-files';
import { SchemaValidator } from './spec/schema-validator';
import type { Spec, SpecOperation } from './spec/spec';
import { loadSpec } from './spec/spec-cache';
import { placeOf, relativeTo, resolveTarget, type Target } from './spec/target';
import { checkErrorResponse } from './checks/error-checks';
import { nameSecrets, type Where } from './checks/failure';
import { Verdict } from './checks/verdict';
import { attachText } from './run/attach';

export interface Contract {
  /** Sends a request and checks the response against the spec (status declared, body matches). */
  send(op: SpecOperation | undefined, method: string, path: string, intent: Intent, clause: ClauseId, options?: CallOptions): Promise<Exchange>;
  /** The same, with the conformance checks stamped with where they were made (see Verdict.at). */
  at(where: Where): Contract;
}

export function contractAt(api: ApiClient, spec: Spec, validator: SchemaValidator, target: Target, v: Verdict): Contract {
  return {
    async send(op, method, path, intent, clause, options) {
      const exchange = await api.call(method, path, options);
      // Checks say where they were made: the operation's place, unless the test named one.
      const at = v.where.place ? v : v.at({ place: placeOf(target, op, method) });
      conform({ verdict: at, spec, validator, op, exchange, intent, clause });
      // Every error answer of a spec'd operation gets the error-body checks (once per exchange).
      if (op) checkErrorResponse({ verdict: at, exchange });
      return exchange;
    },
    at: (where) => contractAt(api, spec, validator, target, v.at(where)),
  };
}

/** Per configuration, what its tests share in a worker, made by the first of them: a worker may run the tests of several (a project or describe may give its own), one test at a time. */
const configurations = new WeakMap<Config, ReturnType<typeof configure>>();
const configured = (config: Config) => configurations.get(config) ?? configurations.set(config, configure(config)).get(config)!;

/** What a contract test is given. */
export interface ContractFixtures {
  config: Config;
  spec: Spec;
  validator: SchemaValidator;
  target: Target;
  /** What a client of the key leaves of its window for the rate-limit tests beside it (contractReserve): read from the spec's route limits once per configuration. */
  reserve: number;
  verdict: Verdict;
  api: ApiClient;
  contract: Contract;
}

/** Why every test but SPEC-1's is skipped against a target that answers without a spec. */
const NO_SPEC_REASON = 'the target serves no spec (SPEC-1 failed): not run';

/** The configuration's secrets by the variable that gives them: a reproduce command names them so. */
const secretVariables = (config: Config): SecretNames => ({
  API_KEY: config.apiKey,
  ACCOUNT_ID: config.accountId,
  SECOND_API_KEY: config.second?.apiKey,
  SECOND_ACCOUNT_ID: config.second?.accountId,
  BURST_API_KEY: config.burstKey?.apiKey,
  BURST_ACCOUNT_ID: config.burstKey?.accountId,
});

/** The secrets of the configuration, registered for redaction, then its spec and target (the validator when first asked for). */
async function configure(config: Config) {
  // No report shows a key or an account id of the configuration, whoever gave it.
  for (const s of Object.values(secretVariables(config))) registerSecret(s);
  const spec = await loadSpec(config);
  const target = resolveTarget(spec, config);
  let validator: SchemaValidator | undefined;
  return { spec, target, reserve: contractReserve(config, spec, target), validator: () => (validator ??= new SchemaValidator(spec)) };
}

export const test = base.extend<ContractFixtures>({
  // An option: a Playwright configuration may give a project, or a describe, a configuration of its own (`use: { config }`).
  config: [async ({}, use) => use(getConfig()), { option: true, box: 'self' }],
  // Without a spec only SPEC-1 has anything to judge. An auto fixture is set up before the test's own,
  // so a skipped test touches nothing (no agent started, no check snapshot taken).
  spec: [
    async ({ config }, use, info) => {
      const made = configured(config);
      // The test's requests go to its configuration's ledger, and its reproduce commands name its key.
      useRunFiles(runFiles(config.environment));
      nameSecrets(secretVariables(config));
      const { spec } = await made;
      const judgesSpec = info.annotations.some((a) => a.type === 'clause' && a.description === 'SPEC-1');
      // Called only to skip: each call finds its caller's place in the source (a stack trace), every test.
      if (spec.unserved && !judgesSpec) info.skip(true, NO_SPEC_REASON);
      await use(spec);
    },
    { auto: true, box: 'self' },
  ],
  validator: [async ({ config }, use) => use((await configured(config)).validator()), { box: 'self' }],
  target: [async ({ config }, use) => use((await configured(config)).target), { box: 'self' }],
  reserve: [async ({ config }, use) => use((await configured(config)).reserve), { box: 'self' }],

  // Every fixture is boxed ('self'): no step of its own in the report, nor its cost (two messages to the
  // runner per setup and teardown, for several fixtures of every test).
  verdict: [
    async ({ config }, use, info) => {
      const verdict = new Verdict(info, config.strictSpec, config.waivers, config.today);
      await use(verdict);
      verdict.finish(info.status);
    },
    { box: 'self' },
  ],

  // Depends on verdict so that it is torn down first: the requests are attached before the verdict throws.
  api: [
    async ({ config, spec, target, reserve, verdict: _verdict }, use, info) => {
      const credentials = { apiKey: config.apiKey, accountId: config.accountId, accountHeader: target.accountHeader };
      const api = new ApiClient(config.baseUrl, credentials, info, config.rateLimit, reserve);
      await use(api);
      info.annotations.push({ type: 'requests', description: String(api.log.length) });
      if (api.log.length) {
        if (config.observe) {
          const templates = spec.operations.map((o) => relativeTo(config.baseUrl, o.path));
          attachText(info, 'observations', observations(api.log, config.baseUrl, templates), 'application/json');
        }
        attachText(info, 'requests', api.log.map((e) => describeExchange(e)).join('\n\n────────\n\n'));
      }
    },
    { box: 'self' },
  ],

  contract: [async ({ api, verdict, spec, validator, target }, use) => use(contractAt(api, spec, validator, target, verdict)), { box: 'self' }],
});

export { expect } from '@playwright/test';

/**
 * A test's details from the clauses it verifies: an annotation per clause (what the reports read) and the tags derived from them
 * (clauseTags: its family and each id, what `--grep @RT-3` selects by). Tags must be declared, not added at run time: --grep is
 * applied when the files are loaded.
 */
export const clauses = (...ids: ClauseId[]) => ({ annotation: ids.map((id) => ({ type: 'clause', description: id })), tag: clauseTags(ids) });
