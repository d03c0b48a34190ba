/**
 * Waivers: violations a team already knows about (a ticket is open, the fix ships next week), accepted
 * until a date. A failure an active waiver covers is kept and reported as `waived`, but does not fail
 * its test. The file is read and checked once with the configuration (support/run/waivers-file.ts).
 */
import type { ClauseId } from '../document/clauses';
import type { Failure } from './failure';

export interface Waiver {
  /** Its position in the file, from 1: how every line about it names it. */
  entry: number;
  clause: ClauseId;
  /** Narrows it to one route (by role, as failures name it) or one class of value. */
  place?: string;
  valueClass?: string;
  reason: string;
  /** The last day it covers, `YYYY-MM-DD` (UTC). */
  until: string;
}

/** What a covered failure carries of its waiver, for every report. */
export type WaiverStamp = Pick<Waiver, 'entry' | 'reason' | 'until'>;

/** A day as waivers compare them: the UTC date, `YYYY-MM-DD` (strings of this shape sort as dates). */
export const utcDay = (at: Date = new Date()) => at.toISOString().slice(0, 10);

/** A waiver covers its `until` day whole. */
export const isActive = (w: Waiver, today: string) => today <= w.until;

export const covers = (w: Waiver, f: Pick<Failure, 'clause' | 'place' | 'valueClass'>) =>
  w.clause === f.clause && (w.place === undefined || w.place === f.place) && (w.valueClass === undefined || w.valueClass === f.valueClass);

/** The first active waiver that covers the failure (the file's order decides between several). */
export const waiverFor = (waivers: readonly Waiver[], f: Pick<Failure, 'clause' | 'place' | 'valueClass'>, today: string) =>
  waivers.find((w) => isActive(w, today) && covers(w, f));

/** How a line names a waiver: its entry and clause, and the route and value class it is narrowed to. */
export const waiverName = (w: Waiver) =>
  `entry ${w.entry} (clause "${w.clause}"${w.place ? `, place "${w.place}"` : ''}${w.valueClass ? `, valueClass "${w.valueClass}"` : ''})`;
