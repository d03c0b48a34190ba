// Reads and validates the service environment. A bad value is one line naming the variable.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULTS, type ServiceOptions } from './app';
import { API_KEYS, GUID, type Accounts } from './accounts';

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name}: expected an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

export interface ServiceConfig extends ServiceOptions {
  port: number;
  host: string;
  /** REFERENCE_PLUGINS: the plugin modules main.ts loads, as absolute paths. */
  pluginFiles: string[];
}

/** REFERENCE_PLUGINS: comma-separated module paths (from the working folder), each one there. */
function readPluginFiles(env: NodeJS.ProcessEnv): string[] {
  const paths = (env.REFERENCE_PLUGINS ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const p of paths) if (!existsSync(resolve(p))) throw new ConfigError(`REFERENCE_PLUGINS: no such file: "${p}"`);
  return paths.map((p) => resolve(p));
}

/**
 * REF_API_KEY, REF_ACCOUNT_ID, REF_SECOND_API_KEY, REF_SECOND_ACCOUNT_ID: the two accounts' credentials in
 * place of the demo ones, each unset one kept (the self-test gives short ones, to prove that no report shows them).
 */
function readAccounts(env: NodeJS.ProcessEnv): Accounts {
  const [[demoKey, demoAccount], [secondKey, secondAccount], [burstKey]] = [...API_KEYS];
  const pairs = [
    ['REF_API_KEY', demoKey, 'REF_ACCOUNT_ID', demoAccount],
    ['REF_SECOND_API_KEY', secondKey, 'REF_SECOND_ACCOUNT_ID', secondAccount],
  ].map(([keyName, key, accountName, account]) => {
    const k = env[keyName] || key;
    const a = env[accountName] || account;
    if (/\s/.test(k)) throw new ConfigError(`${keyName}: must not contain spaces`);
    if (!GUID.test(a)) throw new ConfigError(`${accountName}: must be a GUID`);
    return [k, a.toLowerCase()] as const;
  });
  if (pairs[0][0] === pairs[1][0]) throw new ConfigError('REF_SECOND_API_KEY: the same key as REF_API_KEY');
  if (pairs[0][1] === pairs[1][1]) throw new ConfigError('REF_SECOND_ACCOUNT_ID: the same account as REF_ACCOUNT_ID');
  // The demo account's second key stays, for the main account whatever it is.
  return { keys: new Map([...pairs, [burstKey, pairs[0][1]]]), main: pairs[0][1] };
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const algorithm = env.RATE_LIMIT_ALGORITHM || DEFAULTS.rateLimitAlgorithm;
  if (algorithm !== 'fixed' && algorithm !== 'sliding') {
    throw new ConfigError(`RATE_LIMIT_ALGORITHM: expected "fixed" or "sliding", got "${algorithm}"`);
  }
  const accountHeader = env.REF_ACCOUNT_HEADER || DEFAULTS.accountHeader;
  if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(accountHeader)) {
    throw new ConfigError(`REF_ACCOUNT_HEADER: not a valid header name: "${accountHeader}"`);
  }
  const host = env.HOST || '127.0.0.1';
  if (/\s/.test(host)) throw new ConfigError(`HOST: not a host name: "${host}"`);
  const countRefused = env.RATE_LIMIT_COUNT_REFUSED || 'on';
  if (countRefused !== 'on' && countRefused !== 'off') {
    throw new ConfigError(`RATE_LIMIT_COUNT_REFUSED: expected "on" or "off", got "${countRefused}"`);
  }
  const headers = env.RATE_LIMIT_HEADERS || DEFAULTS.rateLimitHeaders;
  if (headers !== 'route' && headers !== 'global') {
    throw new ConfigError(`RATE_LIMIT_HEADERS: expected "route" or "global", got "${headers}"`);
  }
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host,
    rateLimitMax: int(env, 'RATE_LIMIT_MAX', DEFAULTS.rateLimitMax, 1, 1_000_000),
    rateLimitWindowS: int(env, 'RATE_LIMIT_WINDOW_S', DEFAULTS.rateLimitWindowS, 1, 86_400),
    rateLimitAlgorithm: algorithm,
    rateLimitCountRefused: countRefused === 'on',
    rateLimitHeaders: headers,
    accountHeader,
    accounts: readAccounts(env),
    pluginFiles: readPluginFiles(env),
  };
}
