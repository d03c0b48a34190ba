/**
 * The answer to one update, by what the cell expects: a valid body accepted, an invalid one refused with an error body, a body
 * the target may take or refuse judged by which it did; where the answer shows the check, it shows the values sent (CU-1).
 */
import type { CallOptions } from '../http/client';
import { checkErrorResponse } from '../checks/error-checks';
import { conform } from '../checks/conformance';
import { show, type Where } from '../checks/failure';
import type { Exchange } from '../http/exchange';
import type { ContractFixtures } from '../fixtures';
import type { Cell } from './cells';
import { isState, sameValue, type CheckState } from './state';

export type Judges = Pick<ContractFixtures, 'api' | 'contract' | 'verdict' | 'target' | 'spec' | 'validator' | 'config'>;

export const is2xx = (status: number) => status >= 200 && status < 300;
export const is4xx = (status: number) => status >= 400 && status < 500;

export const whereOf = (cell: Cell): Where => ({ place: 'check-update', valueClass: cell.valueClass, subject: cell.title });

/** The cell that answers for a property of what was sent: a round's unit, else the cell (carriers too). */
export const answering = (cell: Cell, property: string): Cell => cell.units?.find((u) => property in u.body) ?? cell;

/** The answer to one update, judged by the cell's expectation. */
export async function sendJudged(fx: Judges, cell: Cell, path: string, options: CallOptions, before: CheckState): Promise<Exchange> {
  const { api, contract, verdict, target, spec, validator } = fx;
  const where = whereOf(cell);
  const v = verdict.at(where);
  let ex: Exchange;
  if (cell.units) {
    // A round: refused, it is split (bisect) before anything is called wrong.
    ex = await api.call(target.updateMethod, path, options);
    if (!is4xx(ex.status)) conform({ verdict: v, spec, validator, op: target.updateOp, exchange: ex, intent: 'valid', clause: 'CU-1' });
    if (is2xx(ex.status)) for (const u of cell.units) verdict.at(whereOf(u)).pass(u.clause);
  } else if (cell.expect === 'either') {
    // Taken or refused alike; an echo of a value the target's spec does not list is spec drift, judged with the value the check had.
    ex = await api.call(target.updateMethod, path, options);
    let json = ex.json;
    for (const p of is2xx(ex.status) ? (cell.outsideSpecEnum ?? []) : []) {
      if (!isState(json) || !sameValue(json[p], cell.body[p])) continue;
      v.note(
        'spec-drift',
        `${target.updateMethod} ${target.updateOp?.path} echoed ${p} ${show(cell.body[p])}, which the spec's enum does not list (the document does)`,
      );
      json = { ...json, [p]: before[p] };
    }
    conform({ verdict: v, spec, validator, op: target.updateOp, exchange: { ...ex, json }, intent: 'either', clause: cell.clause });
    if (is2xx(ex.status)) v.note('taken', `"${cell.title}" was taken (${ex.status}); either is allowed, its changes are the check's now`);
  } else {
    ex = await contract.at(where).send(target.updateOp, target.updateMethod, path, cell.expect, cell.clause, options);
    // A valid value refused breaks its own rule and CU-1 alike: a valid update of an existing check is accepted.
    if (cell.expect === 'valid' && cell.clause !== 'CU-1')
      v.check({ clause: 'CU-1', ok: is2xx(ex.status), title: 'a valid update was not accepted', received: ex.status, allowed: 'a 2xx', exchange: ex });
  }
  // A refusal's error body (the contract's send checked it already: once per answer).
  if (is4xx(ex.status)) checkErrorResponse({ verdict: v, exchange: ex });
  if (is2xx(ex.status) && cell.expect !== 'invalid' && isState(ex.json)) checkEcho(fx, cell, ex, ex.json);
  return ex;
}

/** The update's own answer, where it shows the check, shows the values sent (CU-1). */
function checkEcho(fx: Judges, cell: Cell, ex: Exchange, echoed: CheckState): void {
  for (const [k, sent] of Object.entries(cell.body)) {
    if (!(k in echoed)) continue;
    const ok = [sent, ...(cell.readsBackAs?.[k] ?? [])].some((x) => sameValue(x, echoed[k]));
    fx.verdict
      .at(whereOf(answering(cell, k)))
      .check({ clause: 'CU-1', ok, field: k, title: "in the update's response is not the value sent", received: echoed[k], allowed: show(sent), exchange: ex });
  }
}
