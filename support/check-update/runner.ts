/**
 * Sends a test's cells to one check and judges them: each answer as it comes back (judge.ts), what the
 * check holds by one read per batch of updates (attribution.ts), so that the family stays within its share
 * of the rate limit. A cell's presumed state is set up first, and a forbidden body the target takes is
 * put back at once, so the cells after it start from a valid state.
 */
import { atTest } from '../run/step-location';
import { attachText } from '../run/attach';
import { test } from '@playwright/test';
import { ClauseFailure, show } from '../checks/failure';
import type { CallOptions } from '../http/client';
import type { Exchange } from '../http/exchange';
import { attribute, expectedAfter, type Finding, type SentUpdate } from './attribution';
import { carriedKinds, carriersFor } from './carriers';
import type { Cell } from './cells';
import type { ClauseId } from '../document/clauses';
import { answering, is2xx, sendJudged, whereOf, type Judges } from './judge';
import { describeRestore, restoreCheck, restored } from './snapshot';
import type { Session } from './session';
import { isState, restoreBody, sameValue, type CheckState } from './state';

interface Pending extends SentUpdate {
  cell: Cell;
  status: number;
  /** The request as sent, for a replay. */
  options: CallOptions;
  ex?: Exchange;
}

/** Updates between two reads; after a leak, one (the target is known to leak: each is read alone). */
export const MAX_BATCH = 20;
/** Forbidden bodies sent at once: a correct target refuses each, so their order cannot matter, and the read after tells a leak apart by its carriers. */
export const FORBIDDEN_AT_ONCE = 10;

/** Longer strings than this, larger integers than this, and lists of more items than this are where stores keep less than they take. */
const ENDS = { chars: 64, integer: 2 ** 15, items: 1 } as const;

/** A value at an end of its representation: a long string or one outside ASCII, a large integer, a list of several items. */
const atAnEnd = (v: unknown): boolean =>
  typeof v === 'string'
    ? [...v].length > ENDS.chars || /[^\x20-\x7e]/.test(v)
    : typeof v === 'number'
      ? Math.abs(v) > ENDS.integer
      : Array.isArray(v) && v.length > ENDS.items;

export class CellRunner {
  private careful = false;
  private counter = 0;
  private carriersNoted = false;

  /** What the test sent and read, a line each in the order it began, marked by whether it failed. */
  private readonly lines: string[] = [];

  constructor(
    private readonly fx: Judges,
    private readonly s: Session,
  ) {}

  /**
   * One step per group of cells sent at once: forbidden bodies whose verdict does not hang on the bodies beside them, a round with the
   * round after it, else one cell. A round refused beside another update is sent again alone before it counts as refused (the document
   * says nothing of updates at once); refused alone, it is sent value by value.
   */
  async run(cells: Cell[]): Promise<void> {
    let batch: Pending[] = [];
    let start = structuredClone(this.s.expected);
    const close = async () => {
      if (batch.length) await this.close(start, batch);
      batch = [];
      start = structuredClone(this.s.expected);
    };
    try {
      for (let i = 0; i < cells.length;) {
        const group = this.group(cells, i, batch.length);
        i += group.length;
        // A body the target may take would overwrite what a refused one before it leaked: read first.
        if (group.some((c) => this.wouldMask(batch, c) || this.wouldOverwrite(batch, c))) await close();
        const ready: Cell[] = [];
        for (const c of group) if (await this.setUp(c, batch)) ready.push(c);
        const sent = await Promise.all(ready.map((c) => this.send(c, batch)));
        const refused = sent.filter((p) => p.cell.units && p.status >= 400);
        if (refused.length && sent.length > 1) await close();
        for (const p of refused) await this.bisect(sent.length > 1 ? await this.send(p.cell, batch) : p, batch);
        // A forbidden body taken: read what it did now, and put the check back before the next cell.
        if (batch.some((p) => p.wronglyAccepted) || batch.length >= (this.careful ? 1 : MAX_BATCH)) await close();
      }
      await close();
    } finally {
      if (this.lines.length) attachText(test.info(), 'cells', this.lines.join('\n'));
    }
  }

  /** The cells from the i-th on that are sent at once; not where every body carries every property. */
  private group(cells: Cell[], i: number, inBatch: number): Cell[] {
    const [cell, next] = [cells[i], cells[i + 1]];
    if (cell.together && next && !this.careful && !this.s.fullBody && !Object.keys(cell.body).some((k) => k in next.body)) return [cell, next];
    const group = [cell];
    const room = Math.min(FORBIDDEN_AT_ONCE, MAX_BATCH - inBatch);
    if (this.independent(cell))
      while (group.length < room && i + group.length < cells.length && this.independent(cells[i + group.length])) group.push(cells[i + group.length]);
    return group;
  }

  /** Whether the check is in the state the cell presumes. */
  private presumedNow(cell: Cell): boolean {
    return Object.entries(cell.given ?? {}).every(([k, v]) => sameValue(this.s.expected[k], v));
  }

  /** Sets up the state a cell presumes where the check is not in it, by a cell of its own (a valid body: judged like one); false (noted) when the target refuses that. */
  private async setUp(cell: Cell, batch: Pending[]): Promise<boolean> {
    if (this.presumedNow(cell)) return true;
    const what = Object.entries(cell.given!)
      .map(([k, v]) => `${k}=${show(v)}`)
      .join(',');
    const title = `set up ${what} for the next cell: must be accepted (CU-1)`;
    const setup = await this.send(
      { title, check: cell.check, clause: 'CU-1', valueClass: `${cell.check}:given:${what}`, body: cell.given!, expect: 'valid' },
      batch,
    );
    if (!setup.accepted) this.fx.verdict.note('cell-not-sent', `"${cell.title}": the state it presumes could not be set up (${setup.status})`);
    return setup.accepted;
  }

  /** A forbidden body whose verdict does not hang on the bodies beside it: the state it presumes is the check's now. */
  private independent(cell: Cell): boolean {
    return !this.careful && cell.expect === 'invalid' && !cell.units && this.presumedNow(cell);
  }

  /**
   * Whether a body the target may take would overwrite what a refused body of the batch carried, so the batch is read first:
   * a body that may be refused, on any shared property; a valid one only on a carrier (a read per frequency overlap costs too much).
   */
  private wouldMask(batch: Pending[], cell: Cell): boolean {
    const refused = batch.filter((p) => !p.accepted);
    if (!refused.length) return false;
    // A replace: every body carries every property.
    if (this.s.fullBody) return cell.expect !== 'invalid' || !this.presumedNow(cell);
    if (cell.expect === 'invalid') return false;
    const carriers = new Set(Object.values(this.s.carriers));
    const writes =
      cell.expect === 'either' ? new Set([...Object.keys(cell.body), ...carriers]) : new Set(Object.keys(cell.body).filter((k) => carriers.has(k)));
    return refused.some((p) => Object.keys(p.body).some((k) => writes.has(k)));
  }

  /**
   * Whether a body the target may take would overwrite a value at the end of its representation that an accepted body of the batch
   * wrote, before any read showed it stored: a store that keeps less than it answers (a description cut at a column's width, a
   * character outside ASCII dropped, a number wrapped, a list cut to its first item) shows only in a read of that value (CU-1).
   */
  private wouldOverwrite(batch: Pending[], cell: Cell): boolean {
    if (cell.expect === 'invalid' || this.s.fullBody) return false;
    const written = new Map<string, unknown>();
    for (const p of batch) if (p.accepted) for (const [k, v] of Object.entries(p.body)) written.set(k, v);
    return Object.entries(cell.body).some(([k, v]) => written.has(k) && atAnEnd(written.get(k)) && !sameValue(written.get(k), v));
  }

  private async send(cell: Cell, batch: Pending[]): Promise<Pending> {
    const token = `${Date.now().toString(36)}-${(this.counter++).toString(36)}`;
    // Atomicity: a body the target must (or may) refuse carries valid changes of every kind.
    const carriers = cell.expect === 'valid' ? {} : carriersFor(this.s.carriers, this.s.expected, token, Object.keys(cell.body));
    const base = this.s.fullBody ? restoreBody(this.s.expected, this.s.writable) : {};
    // The cell's own properties first, in its order (the order a rule may need to try), its values last.
    const body = { ...cell.body, ...base, ...carriers, ...cell.body };
    const wire = cell.wire?.(body);
    const sent = wire ? { rawBody: wire.rawBody } : cell.trailingComma ? { rawBody: `${JSON.stringify(body).slice(0, -1)},}` } : { body };
    const headers = wire?.headers ? { ...cell.headers, ...wire.headers } : cell.headers;
    const options: CallOptions = { ...sent, query: cell.query ?? this.s.query, headers };
    const before = structuredClone(this.s.expected);
    let ex: Exchange | undefined;
    await this.step(cell.title, async () => {
      ex = await sendJudged(this.fx, cell, this.s.routes.updatePath(this.s.id), options, before);
      if (cell.expect !== 'valid' && Object.keys(carriers).length && !this.carriersNoted) {
        this.carriersNoted = true;
        this.fx.verdict.note(
          'carriers',
          `each body the target must or may refuse also carries valid changes of ${carriedKinds(this.s.carriers, carriers).join(', ')} (CU-7)`,
        );
      }
    });
    const status = ex?.status ?? 0;
    const accepted = is2xx(status);
    // A body in another form that the target may take may be read as the object sent or as none (a form parser finds no property): a read may show either.
    const readsBackAs = wire && cell.expect === 'either' ? Object.fromEntries(Object.keys(body).map((k) => [k, [body[k], before[k]]])) : cell.readsBackAs;
    const p: Pending = { cell, body, accepted, wronglyAccepted: accepted && cell.expect === 'invalid', readsBackAs, status, options, ex };
    if (accepted) Object.assign(this.s.expected, structuredClone(body));
    // The model remembers what refused bodies carried (each carrier value is this cell's own): a read that shows one later, however much later, is a leak.
    else for (const [property, value] of Object.entries(carriers)) this.s.refusedCarriers.push({ property, value, title: cell.title, status });
    batch.push(p);
    return p;
  }

  /** A round refused: each of its values alone (when it was), so the one refused is named on its own clause. */
  private async bisect(refused: Pending, batch: Pending[]): Promise<void> {
    if (refused.status < 400) return;
    const alone = [];
    for (const unit of refused.cell.units!) alone.push(await this.send(unit, batch));
    if (alone.every((p) => p.accepted)) {
      this.fx.verdict.at(whereOf(refused.cell)).fail({
        clause: 'CU-1',
        title: 'a body of valid values was refused, though each of them was accepted alone',
        received: refused.status,
        allowed: 'a 2xx',
        exchange: refused.ex,
      });
    }
  }

  private async close(start: CheckState, batch: Pending[]): Promise<void> {
    const { contract, target } = this.fx;
    let findings: Finding[] = [];
    let read: CheckState | undefined;
    await this.step(`read back after ${batch.length} update${batch.length === 1 ? '' : 's'}`, async () => {
      const back = await contract.at({ place: 'check-read' }).send(target.readCheckOp, 'GET', this.s.routes.readPath(this.s.id), 'valid', 'CU-1');
      read = back.status === 200 && isState(back.json) ? back.json : undefined;
      if (!read) return;
      findings = attribute(start, read, batch, this.s.writable);
      for (const f of findings) this.report(f, batch, back);
      this.recordPasses(batch, findings);
    });
    const ambiguous = findings.filter((f) => f.updates.length > 1);
    if (ambiguous.length) await this.replay(start, batch, ambiguous);
    const wrong = findings.some((f) => f.kind !== 'derived') || batch.some((p) => p.wronglyAccepted);
    if (findings.some((f) => f.kind === 'leak')) this.careful = true;
    if (!read) return;
    if (wrong) {
      // Back to what the check should hold: the accepted valid bodies, none of the rest.
      const taken = batch.find((p) => p.wronglyAccepted);
      const why = taken ? `after the accepted invalid body of "${taken.cell.title}"` : 'after a read that showed what should not be';
      const kept = batch.filter((p) => !p.wronglyAccepted);
      await this.restoreTo(expectedAfter(start, kept), why);
    } else {
      this.s.expected = read;
    }
  }

  private report(f: Finding, batch: Pending[], back: Exchange): void {
    const { property, updates, read, before } = f;
    if (f.kind === 'derived') {
      const earlier = this.s.refusedCarriers.find((r) => r.property === property && sameValue(r.value, read));
      if (earlier)
        return this.fx.verdict.at({ place: 'check-update', valueClass: `${this.s.kind}:refused-earlier` }).fail({
          clause: 'CU-7',
          field: property,
          title: `read back with the value an update refused earlier carried ("${earlier.title}", answered ${earlier.status})`,
          received: read ?? null,
          allowed: show(before),
          exchange: back,
        });
      const text = `${property} read back ${show(read)} (was ${show(before)}) though no update sent it; the document does not say what else an update may change`;
      return this.fx.verdict.note('changed-by-the-target', text);
    }
    if (updates.length > 1) return; // replayed, then reported
    const { cell, status } = batch[updates[0]];
    const unit = answering(cell, property);
    if (f.kind === 'not-persisted') {
      const title = 'read back after the accepted update is not the value sent';
      return this.fx.verdict.at(whereOf(unit)).fail({ clause: 'CU-1', field: property, title, received: read ?? null, allowed: show(before), exchange: back });
    }
    // Refused and still changed: no rejection of its own rule either (a rejection changes nothing), named first. The cell is the failure's subject.
    const title = `changed, though its update was answered ${status}`;
    if (unit.clause !== 'CU-7') this.leaked(unit, f, title, back, unit.clause);
    this.leaked(unit, f, title, back);
  }

  /** The checks that held: a value read back (CU-1), a refused body that changed nothing (CU-7). */
  private recordPasses(batch: Pending[], findings: Finding[]): void {
    const blamed = new Set(findings.flatMap((f) => f.updates));
    batch.forEach((p, i) => {
      if (blamed.has(i) || p.wronglyAccepted) return;
      for (const c of p.cell.units ?? [p.cell]) this.fx.verdict.at(whereOf(c)).pass(p.accepted ? 'CU-1' : 'CU-7');
    });
  }

  /** Several refused bodies sent the value read: the batch is sent again one update at a time, with a read after each. */
  private async replay(start: CheckState, batch: Pending[], ambiguous: Finding[]): Promise<void> {
    const { api, target } = this.fx;
    const pending = new Map(ambiguous.map((f) => [f.property, f]));
    await this.step(`send the ${batch.length} updates again one at a time, to find which changed ${[...pending.keys()].join(', ')}`, async () => {
      const ok = await this.restoreTo(start, 'before replaying the batch');
      let expected = structuredClone(start);
      for (let i = 0; ok && i < batch.length && pending.size; i++) {
        const p = batch[i];
        const ex = await api.call(target.updateMethod, this.s.routes.updatePath(this.s.id), p.options);
        const back = await api.call('GET', this.s.routes.readPath(this.s.id));
        if (is2xx(ex.status)) Object.assign(expected, structuredClone(p.body));
        if (!isState(back.json)) break;
        for (const [property, f] of [...pending]) {
          if (is2xx(ex.status) || sameValue(expected[property], back.json[property])) continue;
          const title = `changed, though its update was answered ${ex.status} (found by sending the batch again one update at a time)`;
          this.leaked(answering(p.cell, property), { ...f, read: back.json[property] }, title, ex);
          pending.delete(property);
        }
        expected = back.json;
      }
      for (const [property, f] of pending)
        this.leaked(
          answering(batch[f.updates[0]].cell, property),
          f,
          `changed by one of ${f.updates.length} refused updates in a row; sent again one at a time, none did`,
        );
    });
  }

  /** A refused update changed a property, the failure's field (CU-7, unless its cell's own clause is named). */
  private leaked(
    cell: Cell,
    { property, read, before }: { property: string; read: unknown; before: unknown },
    title: string,
    exchange?: Exchange,
    clause: ClauseId = 'CU-7',
  ): void {
    this.fx.verdict.at(whereOf(cell)).fail({ clause, field: property, title, received: read ?? null, allowed: `unchanged: ${show(before)}`, exchange });
  }

  /** Puts the check in a state (restore + read); its expected state follows what was achieved. */
  private async restoreTo(state: CheckState, why: string): Promise<boolean> {
    const r = await restoreCheck(this.s, this.s.id, state, (method, path, options) => this.fx.api.call(method, path, options));
    this.fx.verdict.note('restored', `${why}: ${describeRestore(r)}`);
    this.s.expected = structuredClone(restored(r) ? state : (r.state ?? this.s.expected));
    return restored(r);
  }

  /** One cell (or read, or replay) is a line of the test's list of cells, and a red step of the report only when it added failures (a step each costs time). */
  private async step(title: string, fn: () => Promise<void>): Promise<void> {
    const { verdict } = this.fx;
    const from = verdict.failures.length;
    const line = this.lines.push(`… ${title}`) - 1;
    await fn();
    const added = verdict.failures.slice(from).filter((f) => !f.waiver);
    this.lines[line] = `${added.length ? '✗' : '✓'} ${title}`;
    if (!added.length) return;
    await test
      .step(
        title,
        async () => {
          throw new ClauseFailure(added);
        },
        atTest(),
      )
      .catch((e) => {
        if (!(e instanceof ClauseFailure)) throw e;
      });
  }
}
