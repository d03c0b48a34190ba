/**
 * CU-7 whatever the cause: an update refused for its credentials (the AUTH table's first probe of each
 * rule, another account's own key), its query parameter or its body changes nothing. Each is a cell the
 * runner sends with the carriers, so a leak shows in the read after it; the rate limit's refusal is left
 * out, since provoking it costs a whole window.
 */
import { AUTH_PROBES, probeCredentials, type AuthProbe } from '../auth/table';
import type { ClauseId } from '../document/clauses';
import type { Config } from '../run/config';
import { foreignCredentials } from '../rate-limit/keys';
import type { Cell } from './cells';
import type { UpdateShape } from './session';
import type { CheckKind } from './table';

/** A body well over any limit a JSON API sets (fastify's default is 1 MiB): a description of 2 MiB. */
export const OVER_LIMIT_CHARS = 2 * 1024 * 1024;

/** What a rejection sends beside the carriers: the parts of its cell that make it one. */
type Request = Pick<Cell, 'body' | 'query' | 'headers' | 'trailingComma'>;

export interface Rejection {
  /** The value class (after `<check>:refused:`). */
  id: string;
  name: string;
  /** The clause the answer's status is judged under. */
  clause: ClauseId;
  /** `either`: the document leaves it open (taken, the changes stand; refused, nothing changed). */
  expect: 'invalid' | 'either';
  /** Undefined where the target gives no way to make it. */
  request: (c: RejectionContext) => Request | undefined;
}

/** The update's shape on the target (its query parameter, the query every update sends, its body's names) and the run's keys. */
export interface RejectionContext extends Pick<UpdateShape, 'queryParam' | 'query' | 'vocabulary'> {
  config: Config;
  accountHeader: string;
  /** Whether the burst runs after this test (its key then stays unused until it does). */
  burstRuns: boolean;
}

/** The first probe of each rule the target must refuse, keeping the Authorization header's role. */
export const CREDENTIAL_PROBES: readonly AuthProbe[] = [...new Set(AUTH_PROBES.map((p) => p.rule))].map((rule) =>
  AUTH_PROBES.find((p) => p.rule === rule && p.expect === 'rejected' && !p.offers && !p.method)!,
);

function withCredentials(probe: AuthProbe, c: RejectionContext): Request {
  const main = { apiKey: c.config.apiKey, accountId: c.config.accountId };
  const creds = probeCredentials(probe, 'check-update', main, undefined, c.config.second?.accountId);
  const headers = { authorization: `Bearer ${creds.apiKey}`, [c.accountHeader]: creds.accountId, ...probe.headers(creds, c.accountHeader, 'check-update') };
  return { body: {}, query: { ...c.query, ...probe.query?.(creds) }, headers };
}

export const REJECTIONS: readonly Rejection[] = [
  ...CREDENTIAL_PROBES.map((p): Rejection => ({ id: p.id, name: p.name, clause: p.clause, expect: 'invalid', request: (c) => withCredentials(p, c) })),
  // Another account's own valid credentials: the check is not theirs, so the update is refused (403 or 404) and changes nothing.
  {
    id: 'foreign-account',
    name: "another account's own key and account header",
    clause: 'CU-8',
    expect: 'invalid',
    request: (c) => {
      const other = foreignCredentials(c.config, c.burstRuns);
      if ('skip' in other) return undefined;
      return { body: {}, query: c.query, headers: { authorization: `Bearer ${other.credentials.apiKey}`, [c.accountHeader]: other.credentials.accountId } };
    },
  },
  // A trailing comma: what a lenient (JSON5-like) parser takes.
  { id: 'not-json', name: 'the body as JSON with a trailing comma', clause: 'CU-7', expect: 'invalid', request: () => ({ body: {}, trailingComma: true }) },
  {
    id: 'over-size-limit',
    name: `a body of over 2 MiB (a description of ${OVER_LIMIT_CHARS} characters)`,
    clause: 'CU-2',
    expect: 'invalid',
    request: ({ vocabulary: { description } }) => (description ? { body: { [description]: 'x'.repeat(OVER_LIMIT_CHARS) } } : undefined),
  },
  {
    id: 'query-not-boolean',
    name: 'the auto-subscribe query parameter "maybe"',
    clause: 'CU-7',
    expect: 'either',
    request: (c) => (c.queryParam ? { body: {}, query: { ...c.query, [c.queryParam]: 'maybe' } } : undefined),
  },
];

/** The rejections as cells of one check (the ones a target must refuse first), and the ones the target gives no way to make. */
export function rejectionCells(check: CheckKind, c: RejectionContext): { cells: Cell[]; notSent: string[] } {
  const made = REJECTIONS.map((r) => ({ r, request: r.request(c) }));
  const cells = made.flatMap(({ r, request }): Cell[] =>
    request ? [{ title: r.name, check, clause: r.clause, valueClass: `${check}:refused:${r.id}`, expect: r.expect, ...request }] : [],
  );
  return { cells, notSent: made.filter((m) => !m.request).map((m) => m.r.name) };
}
