/**
 * CU-7 whatever the cause: an update refused for its credentials, its account header, its query
 * parameter or its body (not JSON, over any size limit) changes nothing. Each such update carries valid
 * changes of every kind (carriers.ts), so a service that applies the body before it checks the rest is
 * caught by the read that follows, on the rejection that leaked (the name and the tag are its own).
 *
 * The credentials are the AUTH table's: the first probe of each rule that a target must refuse. The
 * rate limit's refusal is left to the rate-limit family: provoking one here costs a whole window.
 *
 * A query value that is no boolean is refused or taken as the target likes (the document does not say):
 * taken, its changes are the check's new state; refused, they must not show. It is sent after the
 * others, with a read of its own, so an update that is taken cannot hide what a refused one leaked.
 */
import { randomUUID } from 'node:crypto';
import { test } from '@playwright/test';
import { atTest } from '../run/step-location';
import { AUTH_PROBES, probeCredentials, type AuthProbe } from '../auth/table';
import { checkErrorResponse } from '../checks/error-checks';
import { judgeTakenOrRefused } from '../checks/either';
import { show, type Where } from '../checks/failure';
import type { ClauseId } from '../document/clauses';
import type { CallOptions } from '../http/client';
import type { Exchange } from '../http/exchange';
import type { Config } from '../run/config';
import { attribute, expectedAfter, type SentUpdate } from './attribution';
import { carriersFor } from './carriers';
import type { Judges } from './judge';
import { leakFailure, putBack } from './put-back';
import type { CheckHandle, Session } from './session';
import { isState, restoreBody, type CheckState } from './state';

/** A body well over any limit a JSON API sets (fastify's default is 1 MiB): a description of 2 MiB. */
export const OVER_LIMIT_CHARS = 2 * 1024 * 1024;

export interface Rejection {
  /** The value class (after `<check>:refused:`). */
  id: string;
  name: string;
  /** The clause the answer's status is judged under. */
  clause: ClauseId;
  /** `either`: the document leaves it open (taken, the changes stand; refused, nothing changed). */
  expect: 'invalid' | 'either';
  /** The request that carries `body`, or undefined where the target gives no way to make it. */
  request: (body: CheckState, c: RejectionContext) => CallOptions | undefined;
}

export interface RejectionContext {
  config: Config;
  accountHeader: string;
  /** The update's boolean query parameter, if the spec declares one, and the query every update sends. */
  queryParam?: string;
  query?: Record<string, string>;
  descriptionName?: string;
}

/** The first probe of each rule the target must refuse, keeping the Authorization header's role. */
export const CREDENTIAL_PROBES: readonly AuthProbe[] = [...new Set(AUTH_PROBES.map((p) => p.rule))].map((rule) =>
  AUTH_PROBES.find((p) => p.rule === rule && p.expect === 'rejected' && !p.offers)!,
);

function withCredentials(probe: AuthProbe, body: CheckState, c: RejectionContext): CallOptions {
  const main = { apiKey: c.config.apiKey, accountId: c.config.accountId };
  const creds = { ...probeCredentials(probe, 'check-update', main), otherAccountId: c.config.second?.accountId };
  const headers = { authorization: `Bearer ${creds.apiKey}`, [c.accountHeader]: creds.accountId, ...probe.headers(creds, c.accountHeader) };
  return { body, query: { ...c.query, ...probe.query?.(creds) }, headers };
}

export const REJECTIONS: readonly Rejection[] = [
  ...CREDENTIAL_PROBES.map((p): Rejection => ({
    id: p.id,
    name: p.name,
    clause: p.clause,
    expect: 'invalid',
    request: (body, c) => withCredentials(p, body, c),
  })),
  {
    // A trailing comma: what a lenient (JSON5-like) parser takes.
    id: 'not-json',
    name: 'the body as JSON with a trailing comma',
    clause: 'CU-7',
    expect: 'invalid',
    request: (body, c) => ({ rawBody: `${JSON.stringify(body).slice(0, -1)},}`, query: c.query }),
  },
  {
    id: 'over-size-limit',
    name: `a body of over 2 MiB (a description of ${OVER_LIMIT_CHARS} characters)`,
    clause: 'CU-2',
    expect: 'invalid',
    request: (body, c) => (c.descriptionName ? { body: { ...body, [c.descriptionName]: 'x'.repeat(OVER_LIMIT_CHARS) }, query: c.query } : undefined),
  },
  {
    id: 'query-not-boolean',
    name: 'the auto-subscribe query parameter "maybe"',
    clause: 'CU-7',
    expect: 'either',
    request: (body, c) => (c.queryParam ? { body, query: { ...c.query, [c.queryParam]: 'maybe' } } : undefined),
  },
];

interface Sent extends SentUpdate {
  rejection: Rejection;
  ex: Exchange;
}

/** Sends the rejections to one check and judges its state after them. */
export class RejectionRun {
  constructor(
    private readonly fx: Judges & { config: Config },
    private readonly s: Session,
    private readonly h: CheckHandle,
  ) {}

  private where(r: Rejection): Where {
    return { place: 'check-update', valueClass: `${this.h.kind}:refused:${r.id}`, cell: r.name };
  }

  async run(): Promise<void> {
    const ctx: RejectionContext = {
      config: this.fx.config,
      accountHeader: this.fx.target.accountHeader,
      queryParam: this.s.queryParam,
      query: this.s.query,
      descriptionName: this.s.vocabulary.description,
    };
    const made = REJECTIONS.map((r) => ({ r, body: this.body(r, ctx) }))
      .map(({ r, body }) => ({ r, body, options: r.request(body, ctx) }))
      .filter((m): m is { r: Rejection; body: CheckState; options: CallOptions } => !!m.options);
    const skipped = REJECTIONS.filter((r) => !made.some((m) => m.r === r));
    if (skipped.length)
      this.fx.verdict.note('rejections-not-sent', `not sent, the target's spec gives no way to make them: ${skipped.map((r) => r.name).join('; ')}`);
    // Refused by every correct target: sent at once, then one read. The one a target may take: alone after.
    await this.round(made.filter((m) => m.r.expect === 'invalid'));
    await this.round(made.filter((m) => m.r.expect === 'either'));
  }

  /** Valid changes of every kind (unique to this update), on the check's whole state where the body must be whole. */
  private body(r: Rejection, ctx: RejectionContext): CheckState {
    const exclude = r.id === 'over-size-limit' && ctx.descriptionName ? [ctx.descriptionName] : [];
    const carriers = carriersFor(this.s.carriers, this.h.expected, `${r.id}-${randomUUID().slice(0, 8)}`, exclude);
    return { ...(this.s.fullBody ? restoreBody(this.h.expected, this.s.writable) : {}), ...carriers };
  }

  private async round(made: Array<{ r: Rejection; body: CheckState; options: CallOptions }>): Promise<void> {
    if (!made.length) return;
    const start = structuredClone(this.h.expected);
    const path = this.s.routes.updatePath(this.h.id);
    const sent = await Promise.all(made.map(({ r, body, options }) => this.send(r, path, body, options)));
    await test.step(`read back after ${sent.length} refused update${sent.length === 1 ? '' : 's'}`, async () => this.readBack(start, sent), atTest());
  }

  private async send(r: Rejection, path: string, body: CheckState, options: CallOptions): Promise<Sent> {
    const { api, contract, verdict, target, spec, validator } = this.fx;
    const where = this.where(r);
    const v = verdict.at(where);
    let ex: Exchange;
    if (r.expect === 'invalid') {
      ex = await contract.at(where).send(target.updateOp, target.updateMethod, path, 'invalid', r.clause, options);
      if (ex.status >= 400) checkErrorResponse({ verdict: v, exchange: ex });
    } else {
      ex = await api.call(target.updateMethod, path, options);
      const outcome = judgeTakenOrRefused(v, spec, validator, target.updateOp, ex, r.clause, r.name);
      if (outcome === 'taken') v.note('rejection-taken', `${r.name} was taken (${ex.status}); either is allowed, its changes are the check's now`);
    }
    const accepted = ex.status >= 200 && ex.status < 300;
    return { rejection: r, body, ex, accepted, wronglyAccepted: accepted && r.expect === 'invalid' };
  }

  private async readBack(start: CheckState, sent: Sent[]): Promise<void> {
    const { contract, target, verdict } = this.fx;
    const back = await contract.at({ place: 'check-read' }).send(target.readCheckOp, 'GET', this.s.routes.readPath(this.h.id), 'valid', 'CU-1');
    if (back.status !== 200 || !isState(back.json)) return;
    const read = back.json;
    const findings = attribute(start, read, sent, this.s.writable);
    const blamed = new Set<number>();
    for (const f of findings) {
      if (f.kind === 'leak') {
        const { rejection, ex } = sent[f.update];
        const v = verdict.at(this.where(rejection));
        // Refused and still changed: no rejection of its own rule either (a rejection changes nothing), named first.
        if (rejection.clause !== 'CU-7' && !blamed.has(f.update))
          v.fail({
            ...leakFailure(ex.status, f, back),
            clause: rejection.clause,
            title: `${rejection.name}: answered ${ex.status}, yet changed ${f.property}`,
          });
        blamed.add(f.update);
        v.fail(leakFailure(ex.status, f, back));
      }
    }
    // A value several refused updates sent alike (a flipped flag): named by the leak above, else by the first of them.
    for (const f of findings) {
      if (f.kind !== 'ambiguous' || f.updates.some((u) => blamed.has(u))) continue;
      blamed.add(f.updates[0]);
      verdict.at(this.where(sent[f.updates[0]].rejection)).fail({
        clause: 'CU-7',
        title: `one of ${f.updates.length} refused updates changed ${f.property}`,
        received: f.read ?? null,
        allowed: `unchanged: ${show(f.before)}`,
        exchange: back,
      });
    }
    sent.forEach((p, i) => {
      if (!p.accepted && !blamed.has(i)) verdict.at(this.where(p.rejection)).pass('CU-7');
    });
    const wrong = blamed.size > 0 || findings.some((f) => f.kind === 'not-persisted') || sent.some((p) => p.wronglyAccepted);
    if (wrong)
      await putBack(
        this.fx,
        this.s,
        this.h,
        expectedAfter(
          start,
          sent.filter((p) => !p.wronglyAccepted),
        ),
        'after refused updates that changed the check',
      );
    else this.h.expected = read;
  }
}
