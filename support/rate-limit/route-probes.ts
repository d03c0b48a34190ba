/**
 * Once the burst has spent the key, one request to each other route the suite used shows whether the global limit covers it too
 * (the update with an empty body changes nothing either way); routes with a limit of their own are left out (RL-4).
 */
import type { Config } from '../run/config';
import type { LedgerEntry } from '../http/request-ledger';
import type { Spec, SpecOperation } from '../spec/spec';
import { fillPath, relativeTo, type Target } from '../spec/target';
import type { OneRequest } from './burst';

interface RouteProbe extends OneRequest {
  /** The route by role (`check-read`, `check-update`, `spec`) or `GET <path template>`. */
  place: string;
  op?: SpecOperation;
}

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
  const json = { ...headers, 'content-type': 'application/json' };
  if (target.readCheckOp && target.readPath && config.checkId) {
    probes.push({ place: 'check-read', op: target.readCheckOp, method: 'GET', path: onBase(fillPath(target.readPath, config.checkId)), headers });
  }
  if (target.updateOp && target.updatePath && config.checkId) {
    probes.push({
      place: 'check-update',
      op: target.updateOp,
      method: target.updateMethod,
      path: onBase(fillPath(target.updatePath, config.checkId)),
      headers: json,
      body: '{}',
    });
  }
  const specUrl = /^https?:/.test(config.specUrl) ? new URL(config.specUrl) : undefined;
  if (specUrl && specUrl.origin === base.origin) probes.push({ place: 'spec', method: 'GET', path: `${specUrl.pathname}${specUrl.search}`, headers });
  const taken = new Set([...probes.map((p) => p.path.split('?')[0]), ...options.skipPaths]);
  const roles = new Set([target.runtimeOp, target.readCheckOp, target.updateOp].filter(Boolean));
  const seen = [...new Set(options.ledger.filter((e) => e.method === 'GET').map((e) => e.path))];
  for (const op of spec.operations) {
    if (op.method !== 'get' || roles.has(op)) continue;
    const pattern = templatePattern(onBase(relativeTo(config.baseUrl, op.path)));
    const path = seen.find((p) => pattern.test(p) && !taken.has(p));
    if (!path) continue;
    taken.add(path);
    probes.push({ place: `GET ${op.path}`, op, method: 'GET', path, headers });
  }
  return probes;
}

/** Whether the target's spec declares a 429 for the operation (it then says the route can be limited). */
export const declares429 = (op: SpecOperation | undefined) => !!op && Object.keys(op.op.responses ?? {}).includes('429');
