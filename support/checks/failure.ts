/**
 * A broken clause, as data from the check to every report. `formatFailure` is the one place that turns
 * it into text for people; reporters read the data (the `failures` attachment), never the text.
 */
import type { ClauseId } from '../document/clauses';
import { curlOf, type Exchange, type SecretNames } from '../http/exchange';
import { redact } from '../http/redact';
import type { WaiverStamp } from './waivers';

/** Where a check was made: the route by role (`runtime`, `check-update`, …), the class of value sent, the cell. */
export interface Where {
  place?: string;
  valueClass?: string;
  cell?: string;
}

export type ExchangeSummary = Pick<Exchange, 'method' | 'url' | 'status' | 'contentType'>;

/** A check that did not hold: the clause, a short title, what was received, what the document allows, the exchange behind it. */
export interface Finding {
  clause: ClauseId;
  title: string;
  received: unknown;
  allowed: string;
  exchange?: Exchange;
  /**
   * What makes two failures one: a finding that many tests may see (the same response breaking its
   * spec) carries a key, and the reports keep one failure per clause and key, with its count of sightings.
   */
  key?: string;
  /** The status the check wanted, when it judged a status (a class when any of it would do), for compare mode's few words. */
  expectedStatus?: number | '2xx' | '4xx';
  /** Requests served without one 429, where a limit should have refused. */
  served?: number;
}

/** One check, the one shape every check of the suite is made in: a finding, and whether it held. */
export type Check = Finding & { ok: boolean };

export interface Failure extends Where, Omit<Finding, 'received' | 'exchange'> {
  /** The observed value, shown (JSON text, trimmed, redacted). */
  received: string;
  exchange?: ExchangeSummary;
  /** A command that sends the request again, secrets as $API_KEY, $ACCOUNT_ID and the like. */
  curl?: string;
  /** The waiver that covers it (the failure does not fail its test). */
  waiver?: WaiverStamp;
}

/** The attachment every contract test carries its failures in (JSON: Failure[]). */
export const FAILURES_ATTACHMENT = 'failures';
/** The attachment with what a test tried, per clause, place and value class (JSON: Tried[]). */
export const TRIED_ATTACHMENT = 'tried';

export type Tried = { clause: ClauseId } & Pick<Where, 'place' | 'valueClass'>;

export const show = (value: unknown, max = 200): string => {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
};

/** Secrets the reproduce command names instead of showing (`API_KEY` and the like); set from the test's configuration. */
let secretNames: SecretNames = {};
export function nameSecrets(names: SecretNames): void {
  secretNames = names;
}

export function makeFailure({ clause, title, received, allowed, exchange: ex, key, expectedStatus, served }: Finding, where: Where = {}): Failure {
  const f: Failure = { clause, title: redact(title), received: redact(show(received)), allowed: redact(allowed), ...(key ? { key } : {}) };
  if (expectedStatus !== undefined) f.expectedStatus = expectedStatus;
  if (served !== undefined) f.served = served;
  for (const k of ['place', 'valueClass', 'cell'] as const) if (where[k]) f[k] = redact(where[k]!);
  if (ex) {
    f.exchange = { method: ex.method, url: redact(ex.url), status: ex.status, contentType: ex.contentType };
    f.curl = curlOf(ex, secretNames);
  }
  return f;
}

const whereText = (f: Where) => [f.place, f.valueClass].filter(Boolean).join(' · ');

/** The failure for people: the sentence, then received and allowed, then how to send it again. */
export function formatFailure(f: Failure): string {
  const where = whereText(f);
  const head = `${f.clause}${where ? ` [${where}]` : ''}: ${f.cell ? `${f.cell}: ` : ''}${f.title}`;
  const lines = [head, `  received: ${f.received}`, `  allowed:  ${f.allowed}`];
  if (f.exchange) lines.push(`  request:  ${f.exchange.method} ${f.exchange.url} → ${f.exchange.status}`);
  if (f.curl) lines.push(`  reproduce: ${f.curl}`);
  return lines.join('\n');
}

/** One line, for a matrix row or a compare line. */
export const failureLine = (f: Failure) => {
  const where = whereText(f);
  return `${where ? `[${where}] ` : ''}${f.cell ? `${f.cell}: ` : ''}${f.title} (received ${f.received}; allowed ${f.allowed})`;
};

/** The error a test ends with: every failure it collected, formatted; the data travels as an attachment. */
export class ClauseFailure extends Error {
  constructor(readonly failures: Failure[]) {
    const clauses = [...new Set(failures.map((f) => f.clause))].join(', ');
    const text = failures.map(formatFailure).join('\n\n');
    super(failures.length === 1 ? text : `${failures.length} clause checks failed (${clauses}):\n\n${text}`);
    this.name = 'ClauseFailure';
    // The failures are the message; a stack into the support code would only hide them.
    this.stack = this.message;
  }
}
