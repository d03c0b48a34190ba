/**
 * What a chain does after a read showed its check changed by what should not have changed it: the check
 * put back to what it should hold, so the chain's next test starts from it. And the failure of such a
 * leak, one sentence whoever found it (a batch of cells, the refused updates of rejections.ts).
 */
import type { Finding as CheckFinding } from '../checks/failure';
import { show } from '../checks/failure';
import type { Exchange } from '../http/exchange';
import type { Finding } from './attribution';
import type { Judges } from './judge';
import { describeRestore, restoreCheck, restored, type Send } from './restore';
import type { CheckHandle, Session } from './session';
import type { CheckState } from './state';

/** Puts the check in a state (restore + read); its expected state follows what was achieved. */
export async function putBack(fx: Pick<Judges, 'api' | 'verdict'>, s: Session, h: CheckHandle, state: CheckState, why: string): Promise<boolean> {
  const send: Send = (method, path, options) => fx.api.call(method, path, options);
  const r = await restoreCheck(send, send, s.routes, h.id, state, s.writable, s.query, s.coupled);
  fx.verdict.note('restored', `${why}: ${describeRestore(r)}`);
  h.expected = restored(r) ? structuredClone(state) : structuredClone(r.state ?? h.expected);
  return restored(r);
}

/** CU-7: an update that was refused (its status given) and still changed a property, as the read `back` shows. */
export const leakFailure = (status: number, f: Extract<Finding, { kind: 'leak' }>, back: Exchange): CheckFinding => ({
  clause: 'CU-7',
  title: `an update answered ${status} and still changed ${f.property}`,
  received: f.read ?? null,
  allowed: `unchanged: ${show(f.before)}`,
  exchange: back,
});
