/** The suite's configuration, the only reader of the environment: parsed once with zod; a bad value is one line naming the variable. */
import { config as loadDotenv } from 'dotenv';
import { availableParallelism } from 'node:os';
// zod's v3 API, which the zod package keeps at zod/v3: it loads in about 18 ms where zod 4 takes about 70
// (its 40-odd locales), and the runner and every worker load it before their first test.
import { z } from 'zod/v3';
import { DOCUMENTED_RATE_LIMIT, GUID_FORM } from '../document/facts';
import { utcDay } from '../checks/waivers';
import { readWaiversFile } from './waivers-file';
import { SuiteError } from './suite-error';
import { DEFAULT_CASE_SEED } from '../document/case-seed';

/** Credentials and ids of the embedded reference service: an interface both sides know, not a rule. */
export const EMBEDDED = {
  apiKey: 'mon_demo_4f7c1e9a2b6d4e0f8a3c5b7d9e1f2a4c',
  accountId: '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c',
  secondApiKey: 'mon_demo_second_0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  /** A second key of the demo account, the burst's: its window is fresh, and the second key is free for the probes that need another valid key. */
  burstApiKey: 'mon_demo_burst_5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b',
  secondAccountId: '8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d',
  checkId: '0b8f5c2e-6d1a-4e3b-9f7c-2a4d6e8f0a1b',
  browserCheckId: '1c9e6d3f-7e2b-4f4c-8a8d-3b5e7f9a1b2c',
  /** The embedded agent, started with the same runtime as the suite (the default AGENT_COMMAND). */
  agentCommand: 'node support/run/embedded.mjs reference/agent/main.ts',
} as const;

/** Set by global setup once the embedded service listens (support/run/embedded-service.ts); workers inherit it. */
export const EMBEDDED_PORT_VARIABLE = 'CONTRACT_EMBEDDED_PORT';
/** The day waivers are judged by, set by the runner for its workers, so a run that crosses midnight judges by the day it started. */
export const WAIVER_DAY_VARIABLE = 'CONTRACT_WAIVER_DAY';
/** Set by compare mode: each test attaches what its responses looked like (observations.json). */
export const OBSERVATIONS_VARIABLE = 'CONTRACT_OBSERVATIONS';

/**
 * What a run hands from one of its processes to the next (global setup to the runner, the runner to its workers, which inherit
 * its environment): written and read here only, like every other variable.
 */
const HANDED_OVER = {
  /** The embedded service's port, once it listens (global setup). */
  embeddedPort: EMBEDDED_PORT_VARIABLE,
  /** The day the waivers are judged by (the runner). */
  waiverDay: WAIVER_DAY_VARIABLE,
  /** The folder of the run's shared files (global setup; run-files.ts). */
  runDir: 'CONTRACT_RUN_DIR',
  /** How the burst is kept after every other test (the runner; schedule.ts). */
  lastTests: 'CONTRACT_LAST_TESTS',
  /** Whether the burst's file is in the run (the runner; schedule.ts). */
  burstInRun: 'CONTRACT_BURST_IN_RUN',
} as const;
export type HandedOver = keyof typeof HANDED_OVER;

/** A value handed over in `env` (a target's own environment, a unit test's), else in this process's; blank is unset. */
export const handedOver = (name: HandedOver, env: NodeJS.ProcessEnv = process.env): string | undefined => env[HANDED_OVER[name]] || undefined;

/** Hands a value over in `env`, else to the processes this one starts from now on (its own environment). */
export function handOver(name: HandedOver, value: string, env: NodeJS.ProcessEnv = process.env): void {
  env[HANDED_OVER[name]] = value;
}

/** The runner's own process: Playwright names a worker's index in its environment. */
export const isRunnerProcess = (): boolean => process.env.TEST_WORKER_INDEX === undefined;

/** On a CI system (CI set): `test.only` fails the run there. */
export const onCi = (): boolean => !!process.env.CI;

/**
 * Playwright's own variables, which it reads after the configuration: a reporter added to the command line's
 * (PW_TEST_REPORTER, as its VS Code extension does), and the HTML report's folder and opening, unless the user set them.
 */
export function setPlaywrightVariables(v: { addReporter?: string; htmlOutputDir: string }): void {
  if (v.addReporter) process.env.PW_TEST_REPORTER = v.addReporter;
  process.env.PLAYWRIGHT_HTML_OUTPUT_DIR ??= v.htmlOutputDir;
  process.env.PLAYWRIGHT_HTML_OPEN ??= 'never';
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A blank variable is an unset one. */
const given = (env: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(env).filter(([, v]) => v?.trim()));
const HTTP_URL = 'must be an http(s) URL, e.g. https://staging.example.com';
const httpUrl = z
  .string()
  .url(HTTP_URL)
  .regex(/^https?:/i, HTTP_URL)
  .transform((u) => u.replace(/\/+$/, ''));
const guid = z.string().regex(GUID_FORM, 'must be a GUID, e.g. 6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c');
const withMessage = (message: string) => ({ errorMap: () => ({ message }) });
const onOff = z.enum(['on', 'off'], withMessage('must be "on" or "off"'));
const key = z.string().regex(/^\S+$/, 'must not contain spaces');
const positiveInt = z.coerce.number({ invalid_type_error: 'must be a whole number' }).int('must be a whole number').positive('must be positive');

const schema = z.object({
  BASE_URL: httpUrl.optional(),
  API_KEY: key.optional(),
  ACCOUNT_ID: guid.optional(),
  SECOND_API_KEY: key.optional(),
  SECOND_ACCOUNT_ID: guid.optional(),
  BURST_API_KEY: key.optional(),
  BURST_ACCOUNT_ID: guid.optional(),
  ACCOUNT_HEADER: z.string().regex(HEADER_NAME, 'must be an HTTP header name').optional(),
  SPEC_URL: z
    .string()
    .refine((s) => /^(https?|file):/.test(s) || !s.includes(':'), 'must be an http(s) URL or a file path')
    .optional(),
  AGENT_URL: httpUrl.optional(),
  AGENT_COMMAND: z.string().optional(),
  CHECK_ID: z.string().optional(),
  BROWSER_CHECK_ID: z.string().optional(),
  RATE_LIMIT_MAX: positiveInt.default(DOCUMENTED_RATE_LIMIT.max),
  RATE_LIMIT_WINDOW_S: positiveInt.default(DOCUMENTED_RATE_LIMIT.windowSeconds),
  BURST: onOff.default('on'),
  STRICT_SPEC: onOff.default('off'),
  REPORT_DIR: z.string().default('reports'),
  WAIVERS_FILE: z.string().optional(),
  CASE_SEED: z
    .union(
      [
        z.literal('random'),
        z.coerce
          .number()
          .int()
          .min(0)
          .max(2 ** 32 - 1),
      ],
      withMessage('must be a whole number from 0 to 4294967295, or "random"'),
    )
    .optional(),
  [EMBEDDED_PORT_VARIABLE]: positiveInt.optional(),
  [OBSERVATIONS_VARIABLE]: onOff.default('off'),
  [WAIVER_DAY_VARIABLE]: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
    .optional(),
});

/** Every variable the configuration reads: a run that must be the default one (npm run mutate) is started without them. */
export const CONFIG_VARIABLES = Object.keys(schema.shape);

/** A rate limit: `max` requests per `windowSeconds`. */
export type RateLimit = Config['rateLimit'];

/** The run's configuration, as readConfig makes it from the environment. */
export type Config = ReturnType<typeof readConfig>;

/** `embeddedPortPending`: the runner reads the configuration before the embedded service says its port; until then the URLs are empty. */
export function readConfig(env: NodeJS.ProcessEnv = process.env, { embeddedPortPending = false } = {}) {
  const parsed = schema.safeParse(given(env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0]);
    const value = env[name];
    const secret = name.includes('KEY') || name.includes('ACCOUNT_ID');
    const shown = secret || value === undefined ? '' : ` (got "${value}")`;
    throw new SuiteError('config', `${name} ${issue.message}${shown}`);
  }
  const e = parsed.data;
  // A random seed is drawn once and written back, so the workers (and any child run) use the same one.
  if (e.CASE_SEED === 'random') env.CASE_SEED = String((e.CASE_SEED = Math.floor(Math.random() * 2 ** 32)));
  const embedded = !e.BASE_URL;
  if (embedded && !e[EMBEDDED_PORT_VARIABLE] && !embeddedPortPending) {
    throw new SuiteError('config', `BASE_URL is unset and the embedded service was not started (${EMBEDDED_PORT_VARIABLE} missing)`);
  }
  if (!embedded && !e.API_KEY) throw new SuiteError('config', 'API_KEY is required when BASE_URL is set');
  if (!embedded && !e.ACCOUNT_ID) throw new SuiteError('config', 'ACCOUNT_ID is required when BASE_URL is set');
  if (Boolean(e.SECOND_API_KEY) !== Boolean(e.SECOND_ACCOUNT_ID)) {
    throw new SuiteError('config', 'SECOND_API_KEY and SECOND_ACCOUNT_ID must be set together');
  }
  if (e.BURST_ACCOUNT_ID && !e.BURST_API_KEY) throw new SuiteError('config', 'BURST_ACCOUNT_ID is set without BURST_API_KEY');
  const apiKey = e.API_KEY ?? EMBEDDED.apiKey;
  if (e.BURST_API_KEY && [apiKey, e.SECOND_API_KEY].includes(e.BURST_API_KEY)) {
    throw new SuiteError('config', 'BURST_API_KEY must be a key of its own, not API_KEY or SECOND_API_KEY (the burst needs a window nothing else uses)');
  }
  const port = e[EMBEDDED_PORT_VARIABLE];
  const baseUrl = e.BASE_URL ?? (port ? `http://127.0.0.1:${port}` : '');
  const second: { apiKey: string; accountId: string } | undefined = e.SECOND_API_KEY
    ? { apiKey: e.SECOND_API_KEY, accountId: e.SECOND_ACCOUNT_ID! }
    : embedded
      ? { apiKey: EMBEDDED.secondApiKey, accountId: EMBEDDED.secondAccountId }
      : undefined;
  return {
    /** True when the suite runs against the reference service it started itself. */
    embedded,
    baseUrl,
    apiKey,
    accountId: e.ACCOUNT_ID ?? EMBEDDED.accountId,
    /** A second key of another account, to tell a per-key limiter from a per-IP one. */
    second,
    /** A key for the rate-limit burst alone, so that its window holds only its own requests. */
    burstKey: e.BURST_API_KEY
      ? { apiKey: e.BURST_API_KEY, accountId: e.BURST_ACCOUNT_ID ?? e.ACCOUNT_ID ?? EMBEDDED.accountId }
      : embedded
        ? { apiKey: EMBEDDED.burstApiKey, accountId: e.ACCOUNT_ID ?? EMBEDDED.accountId }
        : undefined,
    /** Fixed by the user; otherwise read from the target's spec. */
    accountHeader: e.ACCOUNT_HEADER,
    specUrl: e.SPEC_URL ?? (baseUrl && `${baseUrl}/openapi.json`),
    agentUrl: e.AGENT_URL,
    // The embedded agent whenever no running agent is named.
    agentCommand: e.AGENT_COMMAND ?? (e.AGENT_URL ? undefined : EMBEDDED.agentCommand),
    checkId: e.CHECK_ID ?? (embedded ? EMBEDDED.checkId : undefined),
    browserCheckId: e.BROWSER_CHECK_ID ?? (embedded ? EMBEDDED.browserCheckId : undefined),
    rateLimit: { max: e.RATE_LIMIT_MAX, windowSeconds: e.RATE_LIMIT_WINDOW_S },
    burst: e.BURST === 'on',
    strictSpec: e.STRICT_SPEC === 'on',
    /** Tests attach their observations (compare mode). */
    observe: e[OBSERVATIONS_VARIABLE] === 'on',
    reportDir: e.REPORT_DIR,
    ...readWaiversFile(e.WAIVERS_FILE),
    /** The day (UTC, YYYY-MM-DD) the waivers are judged by. */
    today: e[WAIVER_DAY_VARIABLE] ?? utcDay(),
    /** The seed of the generated values: every report names it, so a failure can be replayed. */
    caseSeed: e.CASE_SEED ?? DEFAULT_CASE_SEED,
    /** The environment it was read from: AGENT_COMMAND runs in it, and it names the run's files (run-files.ts). */
    environment: env,
  };
}

let cached: Config | undefined;

/** Folds `.env` into process.env; the environment wins over the file. */
export function loadEnvFile(): void {
  loadDotenv({ quiet: true });
}

/** The configuration in this process's environment as it is now, not cached: the runner's, before and after the embedded service says its port. */
export const readRunConfig = (options: { embeddedPortPending?: boolean } = {}): Config => readConfig(process.env, options);

/** The run's configuration, with `.env` folded in (the environment wins over the file). */
export function getConfig(): Config {
  if (!cached) {
    loadEnvFile();
    cached = readConfig(process.env);
  }
  return cached;
}

/** The configuration as a test file reads it while it declares its tests, before any fixture runs: undefined when bad (the runner reports it). */
function declared(): Config | undefined {
  loadEnvFile();
  try {
    return readConfig(process.env, { embeddedPortPending: true });
  } catch {
    return undefined;
  }
}

export const declaredWindowSeconds = (): number => declared()?.rateLimit.windowSeconds ?? DOCUMENTED_RATE_LIMIT.windowSeconds;

/** "random" was drawn by the runner, and is a number by now. */
export const declaredCaseSeed = (): number => declared()?.caseSeed ?? DEFAULT_CASE_SEED;

/** The default run's workers: against the embedded service one per core (at least two, for the two update chains); against a remote one four, as they mostly wait. */
export const defaultWorkers = (embedded: boolean): number => (embedded ? Math.min(4, Math.max(2, availableParallelism())) : 4);
