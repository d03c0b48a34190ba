/** Rate-limit headers (RL-6): what a response says of the limit, whichever convention it follows. */
import { KEPT_HEADER } from './burst';
import { headerValue } from '../http/transport';

/** How a reset value was written: the IETF drafts use seconds until the reset; X-RateLimit-Reset also an epoch time. */
type ResetUnit = 'seconds-until' | 'epoch-seconds' | 'epoch-ms';

export interface LimitHeaders {
  limit?: number;
  remaining?: number;
  /** The window of the policy the headers announce, in seconds (IETF `w=`), where they say it. */
  window?: number;
  /** Seconds from the response until the window resets, whatever unit the header used. */
  reset?: number;
  /** The header the reset came from, its value as sent, and the unit it was read in. */
  resetHeader?: string;
  resetRaw?: number;
  resetUnit?: ResetUnit;
  /** Retry-After in seconds (a date becomes seconds from the response). */
  retryAfter?: number;
  /** Names of the rate-limit headers present. */
  names: string[];
  /** Values that are not what their header calls for. */
  problems: string[];
}

const FIRST_INT = /^\s*(-?\d+(?:\.\d+)?)/;

/** One policy of a list (RateLimit-Policy, or RateLimit-Limit with `;w=`): `600;w=60` (drafts 6-7), `"default";q=600;w=60` (8+). */
interface PolicyItem {
  name?: string;
  quota?: number;
  window?: number;
}

function policyItems(value: string | undefined): PolicyItem[] {
  if (!value) return [];
  return value.split(',').map((item) => {
    const [head, ...params] = item.split(';').map((p) => p.trim());
    const param = (key: string) => {
      const m = params.map((p) => /^(\w+)\s*=\s*(\d+)/.exec(p)).find((x) => x?.[1].toLowerCase() === key);
      return m ? Number(m[2]) : undefined;
    };
    const name = /^"([^"]*)"$/.exec(head)?.[1] ?? (/^[A-Za-z*][\w.:/*-]*$/.test(head) ? head : undefined);
    return { name, quota: /^\d+$/.test(head) ? Number(head) : param('q'), window: param('w') };
  });
}
/** Epoch times this far from the response are read as such; nearer values are seconds from now. */
const EPOCH_SECONDS = 1e9;
const EPOCH_MS = 1e12;

/** Reads X-RateLimit-*, RateLimit-* (drafts 6-7), RateLimit/RateLimit-Policy (draft 8+) and Retry-After. */
export function readLimitHeaders(headers: Record<string, string>, receivedAt = Date.now()): LimitHeaders {
  const h = (name: string) => headers[name] ?? headerValue(headers, name);
  const names = Object.keys(headers).filter((k) => KEPT_HEADER.test(k) && k.toLowerCase() !== 'content-type');
  const problems: string[] = [];
  const structured = h('ratelimit') ?? '';
  const field = (keys: string[], source = structured) => new RegExp(`(?:^|[;,\\s])(?:${keys.join('|')})=(\\d+)`, 'i').exec(source)?.[1];
  const number = (name: string, value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const m = FIRST_INT.exec(value);
    if (!m) problems.push(`${name} "${value}" is not a number`);
    return m ? Number(m[1]) : undefined;
  };
  const pick = (names: string[]) => names.map((n) => [n, h(n)] as const).find(([, v]) => v !== undefined);
  const policies = [...policyItems(h('ratelimit-policy')), ...policyItems(h('ratelimit-limit')?.includes(';') ? h('ratelimit-limit') : undefined)];
  // Draft 8+: RateLimit names the policy it reports (`"default";r=5;t=20`).
  const named = policyItems(structured)[0]?.name;
  const namedPolicy = named === undefined ? undefined : policies.find((p) => p.name === named);
  const [limitName, limitValue] = pick(['x-ratelimit-limit', 'ratelimit-limit', 'x-rate-limit-limit']) ?? [
    'ratelimit',
    field(['limit', 'l']) ?? (namedPolicy?.quota !== undefined ? String(namedPolicy.quota) : field(['q'], h('ratelimit-policy') ?? '')),
  ];
  const limit = number(limitName, limitValue);
  const policy = namedPolicy ?? policies.find((p) => p.quota === limit && p.window !== undefined) ?? (policies.length === 1 ? policies[0] : undefined);
  const [remainingName, remainingValue] = pick(['x-ratelimit-remaining', 'ratelimit-remaining', 'x-rate-limit-remaining']) ?? [
    'ratelimit',
    field(['remaining', 'r']),
  ];
  const [resetName, resetValue] = pick(['x-ratelimit-reset', 'ratelimit-reset', 'x-rate-limit-reset']) ?? ['ratelimit', field(['reset', 't'])];
  const resetRaw = number(resetName, resetValue);
  let reset = resetRaw;
  let resetUnit: ResetUnit | undefined = resetRaw === undefined ? undefined : 'seconds-until';
  if (resetRaw !== undefined && resetRaw > EPOCH_MS) [reset, resetUnit] = [(resetRaw - receivedAt) / 1000, 'epoch-ms'];
  else if (resetRaw !== undefined && resetRaw > EPOCH_SECONDS) [reset, resetUnit] = [resetRaw - receivedAt / 1000, 'epoch-seconds'];
  let retryAfter: number | undefined;
  const ra = h('retry-after');
  if (ra !== undefined) {
    if (/^\s*-?\d+(\.\d+)?\s*$/.test(ra)) retryAfter = Number(ra);
    else if (!Number.isNaN(Date.parse(ra))) retryAfter = (Date.parse(ra) - receivedAt) / 1000;
    else problems.push(`retry-after "${ra}" is neither a number of seconds nor an HTTP date`);
  }
  return {
    limit,
    ...(policy?.window !== undefined ? { window: policy.window } : {}),
    remaining: number(remainingName, remainingValue),
    reset,
    ...(resetRaw !== undefined ? { resetHeader: resetName, resetRaw, resetUnit } : {}),
    retryAfter,
    names,
    problems,
  };
}
