/** Which custom limits (RL-4) the suite can burst harmlessly: GET only, a short window, a small limit, a path it can fill. */
import type { OpenAPIV3 } from 'openapi-types';
import type { Config } from '../run/config';
import { RUNTIME_VERSIONS } from '../document/facts';
import { templateKey } from '../spec/spec';
import { fillPath, relativeTo, type Target } from '../spec/target';
import { formatWindow, type RouteLimit } from './custom-limits';
import { burstBound } from './measurement';

/** A custom limit is burst-tested only when its window can be waited out within a test. */
const MAX_CUSTOM_WINDOW_S = 60;
/** Concurrency for a route's own limit: small limits, so little overshoot. */
export const CUSTOM_CONCURRENCY = 4;

/** The path to call for a custom-limited operation (relative to BASE_URL), or why the suite cannot call it harmlessly. */
export function planCustomLimit(l: RouteLimit, config: Config, target: Target): { path?: string; reason?: string } {
  const op = l.operation;
  if (op.method !== 'get') return { reason: `${op.method.toUpperCase()} may change state; only GET operations are burst-tested` };
  if (l.windowSeconds > MAX_CUSTOM_WINDOW_S)
    return { reason: `a window of ${formatWindow(l.windowSeconds)} is too long to wait out (a burst would lock the route that long)` };
  if (burstBound(l, CUSTOM_CONCURRENCY) > config.rateLimit.max / 4)
    return { reason: `${l.max} requests is more than the suite may spend of the global limit beside the other tests` };
  const params = (op.op.parameters ?? []) as OpenAPIV3.ParameterObject[];
  const needed = params.filter((p) => p?.required && (p.in === 'query' || (p.in === 'header' && p.name.toLowerCase() !== target.accountHeader.toLowerCase())));
  if (needed.length) return { reason: `needs the ${needed[0].in} parameter ${needed[0].name}, which the suite has no harmless value for` };
  const key = templateKey(op.path);
  const path = relativeTo(config.baseUrl, op.path);
  if (!/\{[^}]+\}/.test(op.path)) return { path };
  if (op === target.runtimeOp) return { path: fillPath(path, RUNTIME_VERSIONS[0]) };
  if (target.readCheckOp && key === templateKey(target.readCheckOp.path) && config.checkId) return { path: fillPath(path, config.checkId) };
  return { reason: `needs a value for ${op.path.match(/\{[^}]+\}/)![0]}, which the suite does not know` };
}
