/**
 * ERR as data: the errors the suite provokes beyond authentication and runtime ids: unknown checks on
 * read and update, and update bodies that are no JSON object. Where the document and the spec do not
 * make the request invalid (`mayBeTaken`), a 2xx is noted, never failed; a 5xx always fails.
 */
import { randomUUID } from 'node:crypto';
import type { OpenAPIV3 } from 'openapi-types';
import type { ClauseId } from '../document/clauses';
import type { CallOptions } from '../http/client';
import type { Config } from '../run/config';
import { foreignCredentials } from '../rate-limit/keys';
import { fillPath, jsonBodySchema, type Target } from '../spec/target';

type ErrorPlace = 'check-read' | 'check-update';

export interface ErrorCase {
  /** The value class the checks are stamped with. */
  id: string;
  name: string;
  place: ErrorPlace;
  /** The clause the answer's status is judged under. */
  clause: ClauseId;
  /** The id sent instead of the configured check's (CHECK_ID): one that does not exist, so a 404 is the expected answer and its ERR-1 body what the case verifies. */
  sentId?: () => string;
  options: CallOptions;
  /** Asked with the other account's own key and account header (SECOND_API_KEY): another account's check is a place too. */
  foreign?: true;
  /** Undefined: a 2xx fails the clause; a string: why a 2xx is only noted. */
  mayBeTaken?: (target: Target) => string | undefined;
}

// Why a 2xx may be taken, where the spec leaves room: the body not required, no object schema, another content type.
const bodyOptional = (t: Target) =>
  (t.updateOp?.op.requestBody as OpenAPIV3.RequestBodyObject | undefined)?.required ? undefined : 'the spec does not mark the body required';
const bodyOfAnyShape = (t: Target) => {
  const s = jsonBodySchema(t.updateOp);
  return s && (s.type === 'object' || s.properties || s.allOf) ? undefined : 'the spec declares no object schema for the body';
};
const anyContentType = () => 'the document does not say that another content type is refused';

/** An update body of no JSON object, one row each: value class, name, what is sent, why a 2xx may be taken (none: it fails). */
const BAD_BODIES: ReadonlyArray<readonly [id: string, name: string, options: CallOptions, mayBeTaken?: ErrorCase['mayBeTaken']]> = [
  ['not-json', 'a body that is not JSON', { rawBody: '{"name": ' }],
  ['empty-body', 'an empty body sent as JSON', { rawBody: '' }, bodyOptional],
  ['array-body', 'a JSON array instead of an object', { rawBody: '[]' }, bodyOfAnyShape],
  // A lenient parser may read it as JSON; {} changes nothing either way.
  ['wrong-content-type', 'a JSON object sent as text/plain', { rawBody: '{}', headers: { 'content-type': 'text/plain' } }, anyContentType],
];

const unknownId = { id: 'unknown-id', name: 'a well-formed check id nobody created', sentId: () => randomUUID() };

export const ERROR_CASES: readonly ErrorCase[] = [
  { ...unknownId, place: 'check-read', clause: 'ERR-1', options: {} },
  { id: 'malformed-id', name: 'a malformed check id', place: 'check-read', clause: 'ERR-1', sentId: () => 'not-a-check-id', options: {} },
  // Not this account's check: refused, 403 or 404 alike (the document does not say which), never a 2xx.
  {
    id: 'foreign-check',
    name: "another account's check, asked for with that account's own key and account header",
    place: 'check-read',
    clause: 'CU-8',
    options: {},
    foreign: true,
  },
  // Two problems at once, an unknown id and an invalid body (frequencyOffset, the one property the document
  // names, 0: no integer >= 1): 404 and 400 both pass, but the body's statusCode must be the status sent.
  {
    ...unknownId,
    name: 'a well-formed check id nobody created, with an invalid body',
    place: 'check-update',
    clause: 'CU-8',
    options: { body: { frequencyOffset: 0 } },
  },
  // Update bodies that are no JSON object: refused (CU-7) unless the spec leaves room (`mayBeTaken`).
  ...BAD_BODIES.map(([id, name, options, mayBeTaken]) => ({ id, name, place: 'check-update' as const, clause: 'CU-7' as const, options, mayBeTaken })),
];

/** The request of a case (with the other account's credentials where it is asked with them), or why it cannot be sent to this target. */
export function errorRequest(
  c: ErrorCase,
  target: Target,
  config: Config,
  burstRuns = true,
): { method: string; path: string; headers?: Record<string, string> } | { skip: string } {
  const template = c.place === 'check-read' ? target.readPath : target.updatePath;
  if (!template)
    return { skip: `the target's spec has no ${c.place === 'check-read' ? 'GET of a check' : 'check update whose body has frequencyOffset (see SPEC-5)'}` };
  const id = c.sentId?.() ?? config.checkId;
  if (!id)
    return {
      skip: `CHECK_ID is not set: ${c.foreign ? "no check of the main account to ask for with another account's key" : 'bad bodies are sent only to a check named by CHECK_ID'}`,
    };
  const request = { method: c.place === 'check-read' ? 'GET' : target.updateMethod, path: fillPath(template, id) };
  if (!c.foreign) return request;
  const other = foreignCredentials(config, burstRuns);
  if ('skip' in other) return other;
  return { ...request, headers: { authorization: `Bearer ${other.credentials.apiKey}`, [target.accountHeader]: other.credentials.accountId } };
}
