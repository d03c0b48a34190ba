// The auth-alt faults: a key offered outside the Authorization header (a query parameter, a cookie,
// another header) taken as if it had been sent as a bearer key, the way a framework's "API key from
// anywhere" option does. Only asked when the Authorization header is missing.
import type { FastifyRequest } from 'fastify';
import type { Faults } from '../faults';

const withoutBearer = (v: string) => v.trim().replace(/^bearer\s+/i, '');

function cookie(req: FastifyRequest, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return decodeURIComponent(pair.slice(at + 1).trim());
  }
  return undefined;
}

/** The Authorization value the faults make of a key offered elsewhere, or undefined. */
export function altAuthorization(req: FastifyRequest, faults: Faults): string | undefined {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const found = [
    ...faults.altKeyNames('query').map((n) => query[n]),
    ...faults.altKeyNames('cookie').map((n) => cookie(req, n)),
    ...faults.altKeyNames('header').map((n) => req.headers[n.toLowerCase()]),
  ].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return found === undefined ? undefined : `Bearer ${withoutBearer(found)}`;
}
