/**
 * The URLs and key spellings the global burst spreads over: the runtime operation at every version the target serves, and the scheme
 * in other cases it accepts, since a limit of the key counts them all alike (RL-2).
 */
import { RUNTIME_VERSIONS } from '../document/facts';
import type { Config } from '../run/config';
import { fillPath, type Target } from '../spec/target';
import { headerValue } from '../http/transport';
import { burst, isServed, type BurstTarget } from './burst';
import type { BurstPlan } from './plan';

/** The burst's target, its `paths` the served ones (its own path first), and the versions left out, with the status each was answered. */
export async function spreadOverRoute(config: Config, plan: BurstPlan, target: Target) {
  const pathOf = (version: string) => {
    const url = new URL(`${config.baseUrl}${fillPath(target.runtimePath, version)}`);
    return `${url.pathname}${url.search}`;
  };
  const others = RUNTIME_VERSIONS.map(pathOf).filter((p) => p !== plan.target.path);
  const asker = plan.otherKey ?? plan.target;
  const spellings = await acceptedSpellings(asker);
  const burstKey = headerValue(plan.target.headers, 'authorization') ?? '';
  const spelt = { ...plan.target, ...(spellings.length ? { authorizations: [burstKey, ...spellings.map((s) => s(burstKey))] } : {}) };
  if (!others.length) return { target: spelt, left: [] };
  const asked = await burst({ ...asker, path: others[0], paths: others }, { concurrency: others.length, maxRequests: others.length });
  const served = new Set(asked.replies.filter((r) => isServed(r.status)).map((r) => r.path ?? others[0]));
  const left = asked.replies.filter((r) => !isServed(r.status)).map((r) => `${r.path ?? others[0]} (${r.status || r.error})`);
  return { target: { ...spelt, paths: [plan.target.path, ...others.filter((p) => served.has(p))] }, left };
}

type Spelling = (authorization: string) => string;
const SCHEME_SPELLINGS: Spelling[] = [(a) => a.replace(/^Bearer /, 'bearer '), (a) => a.replace(/^Bearer /, 'BEARER ')];

/** The other spellings of the asker's Authorization value that the target serves, asked once each (in order: one lane). */
async function acceptedSpellings(asker: BurstTarget): Promise<Spelling[]> {
  const own = headerValue(asker.headers, 'authorization') ?? '';
  const asked = await burst({ ...asker, authorizations: SCHEME_SPELLINGS.map((s) => s(own)) }, { concurrency: 1, maxRequests: SCHEME_SPELLINGS.length });
  return SCHEME_SPELLINGS.filter((_, k) => isServed(asked.replies[k].status));
}

export type Spread = Awaited<ReturnType<typeof spreadOverRoute>>;

export const describeSpread = (s: Spread): string =>
  `the burst sends its requests to ${s.target.paths?.length ?? 1} URL(s) of the runtime operation in turn (${(s.target.paths ?? [s.target.path]).join(', ')})` +
  (s.target.authorizations ? `, with the key's scheme spelt ${s.target.authorizations.map((a) => `"${a.split(' ')[0]}"`).join(', ')} in turn` : '') +
  (s.left.length ? `; left out, not served when asked once: ${s.left.join(', ')}` : '');
