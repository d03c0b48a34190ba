/** What a response looked like, reduced to what compare sets side by side: status, headers that matter, body fields with their types. Redacted. */
import type { Exchange } from './exchange';
import { redact } from './redact';

/** A response as observe() reduces it; its `route` names the request by its spec path template, the same on two targets whose ids differ. */
export type Observation = ReturnType<typeof observe>;

const HEADERS_THAT_MATTER = /^(content-type|retry-after|ratelimit-.*|x-ratelimit-.*|deprecation|sunset|last-modified)$/i;

/** JSON path → "type" or "type = value" (short scalars). */
export function shapeOf(value: unknown, path = '$', out: Record<string, string> = {}, depth = 0): Record<string, string> {
  if (Object.keys(out).length >= 60 || depth > 4) return out;
  if (Array.isArray(value)) {
    out[path] = `array(${value.length})`;
    if (value.length) shapeOf(value[0], `${path}[0]`, out, depth + 1);
  } else if (value && typeof value === 'object') {
    out[path] = 'object';
    for (const [k, v] of Object.entries(value)) shapeOf(v, `${path}.${k}`, out, depth + 1);
  } else {
    const type = value === null ? 'null' : typeof value;
    const shown = JSON.stringify(value);
    out[path] = shown !== undefined && shown.length <= 60 ? `${type} = ${shown}` : type;
  }
  return out;
}

/** A path with its query, its path part named by the spec template it matches (a literal path first), else as it is: `PUT /v1/checks/{id}?autoAssignAlerts=false`. */
function routeOf(method: string, path: string, templates: readonly string[]): string {
  const at = path.indexOf('?');
  const [pathname, search] = at < 0 ? [path, ''] : [path.slice(0, at), path.slice(at)];
  const segments = pathname.split('/');
  const matches = (template: string) => {
    const parts = template.split('/');
    return parts.length === segments.length && parts.every((s, i) => s === segments[i] || (s.startsWith('{') && s.endsWith('}')));
  };
  return `${method} ${templates.find((t) => t === pathname) ?? templates.find(matches) ?? pathname}${search}`;
}

/** What a response looked like, not yet redacted: see observations(). */
function observe(e: Exchange, baseUrl: string, templates: readonly string[]) {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(e.headers))
    if (HEADERS_THAT_MATTER.test(k)) headers[k.toLowerCase()] = k.toLowerCase() === 'content-type' ? v.split(';')[0] : v;
  const path = e.url.startsWith(baseUrl) ? e.url.slice(baseUrl.length) : e.url;
  const body: Record<string, string> = e.json !== undefined ? shapeOf(e.json) : e.text ? { $: `text(${e.text.length})` } : {};
  const request = `${e.method} ${path.length > 120 ? `${path.slice(0, 120)}…` : path}`;
  return { request, route: routeOf(e.method, path, templates), status: e.status, headers, body };
}

/** A test's observations as JSON text, redacted once as a whole; `templates`: the spec's paths as called on BASE_URL. */
export const observations = (exchanges: readonly Exchange[], baseUrl: string, templates: readonly string[]): string =>
  redact(JSON.stringify(exchanges.map((e) => observe(e, baseUrl, templates))));
