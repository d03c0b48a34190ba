/**
 * Once the burst has spent the key, one request to each other route the suite used shows whether the global limit covers it too
 * (the update with an empty body changes nothing either way); routes with a limit of their own are left out (RL-4).
 */
import type { Config } from '../run/config';
import type { LedgerEntry } from '../http/request-ledger';
import type { Spec, SpecOperation } from '../spec/spec';
import { fillPath, relativeTo, type Target } from '../spec/target';
import type { BurstTarget } from './burst';

/** `place`: the route by role (`check-read`, `check-update`, `spec`) or `GET <path template>`. */
type RouteProbe = BurstTarget & { method: string; place: string; op?: SpecOperation };

/** A path template as a pattern over request paths: `{id}` is one segment. */
const templatePattern = (template: string) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]*\}/g, '[^/]+')}/?$`);

export function routeProbes(
  config: Config,
  spec: Spec,
  target: Target,
  headers: Record<string, string>,
  options: { skipPaths: string[]; ledger: readonly LedgerEntry[] },
): RouteProbe[] {
  const base = new URL(config.baseUrl);
  const onBase = (path: string) => `${base.pathname.replace(/\/+$/, '')}${path}`;
  const probes: RouteProbe[] = [];
  const add = (place: string, op: SpecOperation | undefined, path: string, request: Partial<RouteProbe> = {}) =>
    probes.push({ place, op, origin: base.origin, method: 'GET', path, headers, ...request });
  if (target.readCheckOp && target.readPath && config.checkId) add('check-read', target.readCheckOp, onBase(fillPath(target.readPath, config.checkId)));
  if (target.updateOp && target.updatePath && config.checkId) {
    const json = { ...headers, 'content-type': 'application/json' };
    add('check-update', target.updateOp, onBase(fillPath(target.updatePath, config.checkId)), { method: target.updateMethod, headers: json, body: '{}' });
  }
  const specUrl = /^https?:/.test(config.specUrl) ? new URL(config.specUrl) : undefined;
  if (specUrl && specUrl.origin === base.origin) add('spec', undefined, `${specUrl.pathname}${specUrl.search}`);
  const taken = new Set([...probes.map((p) => p.path.split('?')[0]), ...options.skipPaths]);
  const roles = new Set([target.runtimeOp, target.readCheckOp, target.updateOp].filter(Boolean));
  const seen = [...new Set(options.ledger.filter((e) => e.method === 'GET').map((e) => e.path))];
  for (const op of spec.operations) {
    if (op.method !== 'get' || roles.has(op)) continue;
    const pattern = templatePattern(onBase(relativeTo(config.baseUrl, op.path)));
    const path = seen.find((p) => pattern.test(p) && !taken.has(p));
    if (!path) continue;
    taken.add(path);
    add(`GET ${op.path}`, op, path);
  }
  return probes;
}

/** Whether the target's spec declares a 429 for the operation (it then says the route can be limited). */
export const declares429 = (op: SpecOperation | undefined) => !!op && Object.keys(op.op.responses ?? {}).includes('429');
