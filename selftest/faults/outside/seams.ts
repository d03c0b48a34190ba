/**
 * Faults applied from outside the reference service: each is one record (the fault's MOCK_FAULT name,
 * what it does, the clauses the suite must fail on, and the change), and the change goes in through a seam any fastify
 * plugin has, never through a branch of the service. The seams used so far, as small builders:
 * servedJson and servedText (an onSend hook on some routes) and notFound (a preHandler hook).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Seams } from '../../../reference/service/seams';
import type { FaultKind } from '../catalogue/fault-kinds';
import type { NamedFaultRecord } from '../types';
import type { ClauseId } from '../../../support/document/clauses';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a served document, changed by path
export type Json = any;

/**
 * A change to the service: the body of a plugin registered unencapsulated, so its hooks see every route,
 * with the service's seams (its rules as data), which it may change before the service reads them.
 */
export type Seam = (app: FastifyInstance, seams: Seams) => void;

/** A named fault: active when MOCK_FAULT names it. */
export interface NamedFault extends NamedFaultRecord {
  apply: Seam;
}

type Row<K extends FaultKind['kind']> = Extract<FaultKind, { kind: K }>;

/** A parameterized kind: active when MOCK_FAULT holds rows of it (`kind:arg…`), applied with all of them. */
export type KindFault = {
  [K in FaultKind['kind']]: {
    kind: K;
    /** Any of these, by the row's arguments (the generated list names each row's). */
    clauses: ClauseId[];
    apply: (rows: Array<Row<K>>) => Seam;
  };
}[FaultKind['kind']];

export type OutsideFault = NamedFault | KindFault;

const routeOf = (urls: readonly string[]) => (url: string | undefined) => urls.includes(url ?? '');

/** The seam of a served document: a 200's JSON from these routes parsed, changed, and sent again (its headers kept). */
export const servedJson =
  (urls: readonly string[], edit: (doc: Json) => void): Seam =>
  (app) => {
    const served = routeOf(urls);
    app.addHook('onSend', async (req, reply, payload) => {
      if (!served(req.routeOptions.url) || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const doc: Json = JSON.parse(payload);
      edit(doc);
      return JSON.stringify(doc);
    });
  };

/** The seam of a served text: a 200's body and headers from these routes, as the client receives them. */
export const servedText =
  (urls: readonly string[], bend: (text: string, reply: FastifyReply) => string): Seam =>
  (app) => {
    const served = routeOf(urls);
    app.addHook('onSend', async (req, reply, payload) =>
      served(req.routeOptions.url) && reply.statusCode === 200 && typeof payload === 'string' ? bend(payload, reply) : payload,
    );
  };

/**
 * These routes answered 404 "Route not found", as a path no route handles: thrown just before the handler
 * (after the service's own checks of the request), so its error handler answers it on the route's behalf
 * (its place, its error faults).
 */
export const notFound =
  (urls: readonly string[]): Seam =>
  (app) => {
    const served = routeOf(urls);
    app.addHook('preHandler', async (req) => {
      if (served(req.routeOptions.url)) throw Object.assign(new Error('Route not found'), { statusCode: 404 });
    });
  };

/** Several seams as one change. */
export const all =
  (...seams: Seam[]): Seam =>
  (app, parts) => {
    for (const s of seams) s(app, parts);
  };
