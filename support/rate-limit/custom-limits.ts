/** Custom per-route limits as real specs state them, in an operation's prose ("5 requests / 10 seconds"): RL-4's contract, its one reader, and which of them the suite can burst harmlessly. */
import type { OpenAPIV3 } from 'openapi-types';
import type { Config, RateLimit } from '../run/config';
import { RUNTIME_VERSIONS } from '../document/facts';
import { templateKey, type Spec, type SpecOperation } from '../spec/spec';
import { fillPath, relativeTo, type Target } from '../spec/target';
import { burstBound } from './burst';

/** `text`: the words the limit was read from, for the report. */
type CustomLimit = RateLimit & { text: string };

export type RouteLimit = CustomLimit & { operation: SpecOperation };

/** Seconds per unit, by the unit's first letter (the pattern below admits no other words). */
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
/** The units a window is written in (60 s stays "60 seconds", as specs write it). */
const WINDOW_UNITS = [['day', UNIT_SECONDS.d] as const, ['hour', UNIT_SECONDS.h] as const];

// "20 requests / 10 seconds", "300 requests per day", "100 requests per 1 minute", "60 requests/min".
const LIMIT =
  /(\d[\d,]*)\s*(?:api\s+)?(?:requests?|calls?)\s*(?:\/|per\b|every\b|in\b|within\b)\s*(?:(?:a|an|one)\s+)?(\d[\d,]*(?:\.\d+)?)?\s*(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d)\b/i;

const toNumber = (s: string) => Number(s.replace(/,/g, ''));

export function parseCustomLimit(text: string | undefined): CustomLimit | undefined {
  if (!text) return undefined;
  const m = LIMIT.exec(text);
  if (!m) return undefined;
  const unit = UNIT_SECONDS[m[3][0].toLowerCase()];
  const max = toNumber(m[1]);
  const count = m[2] === undefined ? 1 : toNumber(m[2]);
  if (!Number.isInteger(max) || max < 1 || !(count > 0)) return undefined;
  return { max, windowSeconds: count * unit, text: m[0].trim() };
}

/** Every operation of the spec whose description (or summary) states a custom limit. */
export const customLimitsOf = (spec: Spec): RouteLimit[] =>
  spec.operations.flatMap((operation) => {
    const limit = parseCustomLimit(operation.op.description) ?? parseCustomLimit(operation.op.summary);
    return limit ? [{ ...limit, operation }] : [];
  });

/** In the largest of days, hours and seconds that the window is a whole number of. */
export function formatWindow(seconds: number): string {
  const [unit, n] = WINDOW_UNITS.find(([, n]) => seconds >= n && seconds % n === 0) ?? ['second', 1];
  return seconds === n ? `1 ${unit}` : `${seconds / n} ${unit}s`;
}

export const formatLimit = (l: CustomLimit) => `${l.max} requests / ${formatWindow(l.windowSeconds)}`;

export const describeRouteLimit = (l: RouteLimit) => `${l.operation.method.toUpperCase()} ${l.operation.path}: ${formatLimit(l)}`;

/** A custom limit is burst-tested only when its window can be waited out within a test. */
const MAX_CUSTOM_WINDOW_S = 60;
/** Concurrency for a route's own limit: small limits, so little overshoot. */
export const CUSTOM_CONCURRENCY = 4;
/** The least global limit at which a route's own limit is burst-tested: its burst may spend a quarter of it, beside the other tests. */
export const leastGlobalLimitFor = (l: RateLimit) => 4 * burstBound(l, CUSTOM_CONCURRENCY);

/** The path to call for a custom-limited operation (relative to BASE_URL), or why the suite cannot call it harmlessly. */
export function planCustomLimit(l: RouteLimit, config: Config, target: Target): { path?: string; reason?: string } {
  const op = l.operation;
  if (op.method !== 'get') return { reason: `${op.method.toUpperCase()} may change state; only GET operations are burst-tested` };
  if (l.windowSeconds > MAX_CUSTOM_WINDOW_S)
    return { reason: `a window of ${formatWindow(l.windowSeconds)} is too long to wait out (a burst would lock the route that long)` };
  if (config.rateLimit.max < leastGlobalLimitFor(l))
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
