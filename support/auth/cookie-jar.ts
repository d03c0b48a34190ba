/**
 * A client that keeps cookies, as a browser or a client with a cookie jar does: what the target set on
 * a served answer (Set-Cookie) goes back with the requests after it. AUTH-1 and AUTH-5 hold whatever
 * cookies come with a request: a session the target keeps in a cookie authenticates nothing the
 * document's headers do not.
 */

/** The cookies each origin set, by name (the last value wins), kept for the worker's run. */
const jars = new Map<string, Map<string, string>>();

/** Set-Cookie values as one header (joined with ", "): a new cookie starts where a name= follows a comma; an Expires date's comma does not. */
const setCookies = (value: string): string[] => value.split(/,\s*(?=[^;,=\s]+=)/);

/** Keeps the cookies an answer from `url` set. */
export function keepCookies(url: string, headers: Record<string, string>): void {
  const value = Object.entries(headers).find(([k]) => k.toLowerCase() === 'set-cookie')?.[1];
  if (!value) return;
  const origin = new URL(url).origin;
  const jar = jars.get(origin) ?? jars.set(origin, new Map()).get(origin)!;
  for (const cookie of setCookies(value)) {
    const [pair] = cookie.split(';');
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
}

/** The Cookie header a client with a jar sends to `url` (undefined: the target set none), after any cookie of its own. */
export function withKeptCookies(url: string, own?: string): string | undefined {
  const jar = jars.get(new URL(url).origin);
  const kept = jar && [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  return [own, kept].filter(Boolean).join('; ') || undefined;
}

/** The names of the cookies kept for `url`, for the report. */
export const keptCookieNames = (url: string): string[] => [...(jars.get(new URL(url).origin)?.keys() ?? [])];
