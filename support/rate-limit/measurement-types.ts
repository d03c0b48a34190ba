/** The burst's measurements as data: what one burst got back, what it means, and the outcome. */
import type { BurstTarget, Reply } from './burst';
import type { KnownPrior } from './known-prior';
import type { RateLimit } from '../run/config';

export type Limit = RateLimit;

export type Shape = 'exact' | 'fewer' | 'more' | 'none' | 'wrong-status' | 'broken' | 'ambiguous';

/** What the served replies' headers say of the window before the burst. */
export interface HeaderCount {
  limit?: number;
  remainingMax: number;
  remainingMin: number;
  /** Requests the target says it had counted before the burst: limit - (highest remaining) - 1. */
  counted?: number;
  /** Remaining fell by one per served request, to 0 at the last: the headers agree with what the target did. */
  consistent: boolean;
}

export interface Refill {
  probes: number;
  served: number;
  /** Tokens a bucket refilling at limit/window would have added while the burst was served. */
  allowance: number;
  /** Served again and again right after the 429: a window that turned over, not a refill. */
  turnedOver: boolean;
}

export interface Measurement {
  attempt: number;
  /** Sent after a whole window in which the suite sent nothing at all. */
  clean: boolean;
  known: KnownPrior;
  /** What the window held before the burst, as the decision takes it, and where that figure came from. */
  base?: number;
  baseFrom?: 'fresh' | 'headers';
  sent: number;
  served: number;
  /** Replies with a status that is not 2xx (the limiter's answers), confirmations included. */
  refusals: Reply[];
  replies: Reply[];
  confirmations: Reply[];
  errors: string[];
  durationMs: number;
  bound: number;
  headers?: HeaderCount;
  refill?: Refill;
  /** The limit also refused another key right after the burst. */
  sharedWith?: 'shared' | 'separate';
  shape: Shape;
  /** Why the measurement decides nothing (shape 'ambiguous', a large 'more'). */
  why?: string;
  /** Requests the headers counted that the suite did not send, in a window it left quiet with a key nothing else uses. */
  phantom?: number;
  notes: string[];
}

export type Outcome =
  | { kind: 'holds'; limit: number; refilled?: number }
  | { kind: 'too-low'; served: number; base: number }
  | { kind: 'too-high'; served: number[]; base: number }
  | { kind: 'no-limit'; sent: number; ms: number }
  | { kind: 'wrong-status'; status: number; served: number }
  | { kind: 'inconclusive'; why: string };

export interface LimitReport {
  outcome: Outcome;
  measurements: Measurement[];
  /** Every request sent, confirmations and probes included. */
  requests: number;
  /** One line per attempt and per wait, for the report. */
  story: string[];
  /** Why the burst waited a whole window, one line per wait (empty when it did not). */
  waits: string[];
}

/** Requests a burst may send before it concludes that there is no limit (a correct one refuses sooner). */
export const burstBound = (limit: Limit, concurrency: number) => 2 * limit.max + 2 * concurrency + 10;

/** A few more than the limit, with no refill after the 429: a wrong limit (a window that turned over mid-burst serves many more). */
export const smallExcess = (limit: Limit) => Math.max(1, Math.ceil(limit.max / 100));

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** Margin added to a window before the next clean measurement, and to the window a request may still be in: clocks and rounding. */
export const windowMargin = (windowMs: number) => 250 + Math.ceil(windowMs * 0.02);

export interface MeasureOptions {
  target: BurstTarget;
  limit: Limit;
  /** What the suite sent with the burst's key that may be in a window starting at `since` (default: nothing). */
  known?: (since: number) => KnownPrior;
  /** When the suite last sent anything (any key): a clean measurement starts a window after it. */
  lastActivity?: () => number;
  /** The same route with another key: asked once when fewer were served, to see whether the limit is shared. */
  otherKey?: BurstTarget;
  /** The key is the suite's own burst key, so a window this run sent nothing in is fresh; not so for API_KEY (default: true). */
  exclusive?: boolean;
  concurrency?: number;
  maxAttempts?: number;
}
