/**
 * What the family's tests call: one test of the table on one check, the refused updates (CU-7), the unknown id (CU-8) and
 * the final restore (CU-9); what the configuration or the spec does not give is a skip, anything else one line of failure.
 */
import { atTest } from '../run/step-location';
import { burstInRun } from '../run/schedule';
import { randomUUID } from 'node:crypto';
import { test } from '@playwright/test';
import { checkErrorResponse } from '../checks/error-checks';
import { show } from '../checks/failure';
import { fillPath } from '../spec/target';
import { cellsFor, type Cell } from './cells';
import { CellRunner } from './runner';
import { rejectionCells } from './rejections';
import { bodyLensCells } from '../request-lens/body-cells';
import type { Judges } from './judge';
import { describeRestore, restored, type Send } from './snapshot';
import { putBack, specGap, updateShape, type CheckSessions, type Session } from './session';
import { changedProperties, isState, restoreBody, sameValue } from './state';
import { EXPECTED_TYPE, type CheckKind, type UpdateTest } from './table';
import { frequenciesToTest, missingReason, noteSpecFindings } from './vocabulary';

/** A test's time limit: a remote target may take a second or two for each update, and a read, a set-up and a restore when something goes wrong. */
const budgetMs = (cells: Cell[]) => 30_000 + 2_000 * (5 + 3 * cells.reduce((n, c) => n + (c.units?.length ?? 1), 0));

export class CheckUpdateFamily {
  constructor(
    private readonly fx: Judges,
    private readonly sessions: CheckSessions,
  ) {}

  private readonly send: Send = (method, path, options) => this.fx.api.call(method, path, options);

  /** The check's session, or a skip (configuration, spec) or a one-line failure (anything else, thrown by the opening). */
  private async open(kind: CheckKind): Promise<Session> {
    const session = await this.sessions.open(this.send, kind);
    if (typeof session === 'string') return test.skip(true, session) as never; // test.skip(true) throws
    for (const n of session.notes.splice(0)) this.fx.verdict.note('restored', n);
    return session;
  }

  async run(t: UpdateTest, kind: CheckKind): Promise<void> {
    const { target, verdict } = this.fx;
    const s = await this.open(kind);
    const { vocabulary: names, ownType, facts: spec, queryParam } = s;
    const frequencies = t.roles.includes('frequency') ? frequenciesToTest(verdict, target, names.frequency) : [];
    const otherCheck = !!this.fx.config.checkId && !!this.fx.config.browserCheckId;
    const cells = cellsFor(t.key, { check: kind, ownType, names, frequencies, spec, queryParam, seed: this.fx.config.caseSeed, otherCheck });
    const lacking = missingReason(names, t.roles);
    if (lacking) verdict.note('spec-finding', lacking);
    const empty =
      t.key === 'query' ? "the target's spec declares no boolean query parameter on the update (see SPEC-5)" : 'no cell of this test applies to this target';
    test.skip(cells.length === 0, lacking ?? empty);
    if (t.compares) noteSpecFindings(verdict, target, t.compares);
    if (s.ownType !== EXPECTED_TYPE[kind])
      verdict.note('check-type', `${kind === 'api' ? 'CHECK_ID' : 'BROWSER_CHECK_ID'} names a check of type ${s.ownType}: the rules are judged for that type`);
    test.setTimeout(budgetMs(cells));
    await new CellRunner(this.fx, s).run(cells);
  }

  /** CU-7 whatever the cause: updates refused for their credentials, query or body change nothing (rejections.ts). */
  async rejections(kind: CheckKind): Promise<void> {
    // Both checks are updated through the one route, which refuses before it looks at the check: one chain sends them.
    test.skip(kind === 'browser' && !!this.fx.config.checkId, "sent on the API check's chain: both checks are updated through the same route");
    const { config, target, verdict } = this.fx;
    const s = await this.open(kind);
    const refused = rejectionCells(kind, { ...s, config, accountHeader: target.accountHeader, burstRuns: burstInRun(test.info().project) });
    // The request lens's body dimension (other JSON types, media types, sizes): refused or taken, read back alike.
    const cells = [...refused.cells, ...bodyLensCells(kind, target, s.vocabulary, Date.now().toString(36))];
    const { notSent } = refused;
    if (notSent.length)
      verdict.note('rejections-not-sent', `not sent, the target's spec or the configuration gives no way to make them: ${notSent.join('; ')}`);
    test.setTimeout(budgetMs(cells));
    await new CellRunner(this.fx, s).run(cells);
  }

  /** CU-8: an update of a check nobody created is not found, never applied. */
  async unknownId(): Promise<void> {
    const { target, verdict, contract, config } = this.fx;
    test.skip(!target.updateOp || !target.updatePath, specGap(target));
    const { vocabulary, fullBody, query } = updateShape(target);
    const lacking = missingReason(vocabulary, ['name']);
    if (lacking) verdict.note('spec-finding', lacking);
    test.skip(!!lacking, lacking);
    // A replace (required properties) gets a whole, valid body, so that only the id can be wrong: a
    // configured check's state as the session knows it.
    let base = {};
    if (fullBody && (config.checkId || config.browserCheckId) && !specGap(target)) {
      const s = await this.open(config.checkId ? 'api' : 'browser');
      base = restoreBody(s.expected, s.writable);
    }
    const placed = atTest();
    for (const [what, id] of [
      ['a well-formed id nobody created', randomUUID()],
      ['a malformed id', 'not-a-check-id'],
    ]) {
      await test.step(
        `${what}: must be rejected (CU-8)`,
        async () => {
          const where = { place: 'check-update', valueClass: `unknown-id:${id === 'not-a-check-id' ? 'malformed' : 'well-formed'}` };
          const body = { ...base, [vocabulary.name!]: `contract-suite CU-8 ${randomUUID().slice(0, 8)}` };
          const ex = await contract.at(where).send(target.updateOp, target.updateMethod, fillPath(target.updatePath!, id), 'invalid', 'CU-8', { body, query });
          checkErrorResponse({ verdict: verdict.at(where), exchange: ex });
        },
        placed,
      );
    }
  }

  /**
   * CU-9: after its chain, the check is as it was before the run (judged by a read), then its file goes.
   * The read before the restore is judged too, against the model the chain kept (the last read, with every
   * update the target accepted since applied): a write refused earlier that took effect later, or an
   * accepted one undone, shows there (CU-7). And the restore, an accepted update, is sent once more: a
   * repeat is accepted again and changes nothing (CU-1).
   */
  async restore(kind: CheckKind): Promise<void> {
    const { contract, target, verdict } = this.fx;
    const s = await this.open(kind);
    // The restore itself is the suite's own doing, not the target's contract: only its outcome, read
    // back through the spec'd GET, is judged.
    const read: Send = (method, path, options) => contract.at({ place: 'check-read' }).send(target.readCheckOp, method, path, 'valid', 'CU-9', options);
    for (const n of s.snapshot.recovery ?? []) verdict.note('restored', n);
    const predicted = structuredClone(s.expected);
    const r = await putBack(s, read, this.send);
    verdict.note('restored', describeRestore(r));
    const drift = r.before ? changedProperties(predicted, r.before, s.writable) : [];
    const leaked = (k: string) => s.refusedCarriers.find((c) => c.property === k && sameValue(c.value, r.before?.[k]));
    verdict.at({ place: 'check-read', valueClass: `${kind}:model` }).check({
      clause: 'CU-7',
      ok: drift.length === 0,
      field: drift.join(', '),
      title: `of check ${s.id}, read at the end of its chain, ${drift.length === 1 ? 'is not what the updates the target accepted left it' : 'are not what the updates the target accepted left them'}`,
      received: drift
        .map((k) => `${k}: ${show(r.before?.[k])}${leaked(k) ? ` (carried by "${leaked(k)!.title}", refused ${leaked(k)!.status})` : ''}`)
        .join('; '),
      allowed: drift.map((k) => `${k}: ${show(predicted[k])}`).join('; '),
    });
    verdict.at({ place: 'check-update', valueClass: `${kind}:restore` }).check({
      clause: 'CU-9',
      ok: restored(r),
      ...(r.error || !r.remaining.length
        ? { title: `check ${s.id} is not as it was before the run${r.error ? `: ${r.error}` : ''}` }
        : { field: r.remaining.join(', '), title: `of check ${s.id} ${r.remaining.length === 1 ? 'is' : 'are'} still not as before the run` }),
      received: r.steps.join('; ') || 'no restore sent',
      allowed: 'every writable property equal to the snapshot taken before the first update',
    });
    // On one check: two requests more of the main key, whose window the custom-limit burst needs room in.
    if (restored(r) && kind === 'api') await this.repeatRestore(s, kind);
  }

  /** The restore's body sent again: a valid update repeated is accepted again, and the check reads the same (CU-1). */
  private async repeatRestore(s: Session, kind: CheckKind): Promise<void> {
    const { contract, target, verdict } = this.fx;
    const where = { place: 'check-update', valueClass: `${kind}:repeat` };
    const body = restoreBody(s.snapshot.checks[s.id], s.writable);
    const ex = await contract.at(where).send(target.updateOp, s.routes.method, s.routes.updatePath(s.id), 'valid', 'CU-1', { body, query: s.query });
    if (ex.status < 200 || ex.status >= 300) return;
    const back = await contract
      .at({ place: 'check-read', valueClass: `${kind}:repeat` })
      .send(target.readCheckOp, 'GET', s.routes.readPath(s.id), 'valid', 'CU-1');
    const after = back.status === 200 && isState(back.json) ? back.json : undefined;
    const changed = after ? changedProperties(s.snapshot.checks[s.id], after, s.writable) : [];
    verdict.at(where).check({
      clause: 'CU-1',
      ok: changed.length === 0,
      field: changed.join(', '),
      title: 'changed when the restore was sent again (an accepted update repeated)',
      received: changed.map((k) => `${k}: ${show(after?.[k])}`).join('; '),
      allowed: 'the same state as after the first time',
    });
  }
}
