/**
 * A broken clause: one record from the check to every report (the test's attachment, contract-matrix.json,
 * failures.json, compare). Its field, values and place are data beside the title, as a zod issue keeps
 * its path and an ajv error its params; the text for people is rendered from them at the edge, here and
 * nowhere else (the test's error, the console line, a matrix row, junit.xml, compare's few words).
 */
import { z } from 'zod/v3';
import { isClauseId, type ClauseId } from '../document/clauses';
import { curlOf, shortenRuns, type Exchange, type SecretNames } from '../http/exchange';
import { redact } from '../http/redact';

/** Where a check was made: the route by role (`runtime`, `check-update`, …), the class of value sent, what it was about (a cell, a runtime). */
export interface Where {
  place?: string;
  valueClass?: string;
  subject?: string;
}

/** One check, the one shape every check of the suite is made in: whether it held, and what a failure of it records. */
export interface Check {
  clause: ClauseId;
  ok: boolean;
  /** Words only: "is not v<major>.<minor>.<patch>"; the field and the values are the fields below. */
  title: string;
  /** The field the check is of, when it is of one (`nodeJsVersion`): shown before the title. */
  field?: string;
  received: unknown;
  allowed: string;
  exchange?: Exchange;
  /**
   * What makes two failures one: a failure that many tests may see (the same response breaking its
   * spec) carries a key, and the reports keep one failure per clause and key, with its count of sightings.
   */
  key?: string;
  /** The status the check wanted, when it judged a status (a class when any of it would do). */
  expectedStatus?: number | '2xx' | '4xx';
  /** Requests served without one 429, where a limit should have refused. */
  served?: number;
}

const opt = z.string().optional();
const clauseId = z.custom<ClauseId>((v) => typeof v === 'string' && isClauseId(v), 'not a clause id');

/**
 * The failure record, in every report file and attachment. The check's data (a shown `received`, the
 * exchange summed up, its `curl`), its waiver, and, once a reporter has read it, the run's context: the
 * test, its file and project, how many tests saw a keyed one, `error` when the test failed before its checks.
 */
export const failureSchema = z.preprocess(
  // Records written before `subject` called it `cell` (the recorded compare runs).
  (v) => (v && typeof v === 'object' && 'cell' in v && !('subject' in v) ? { ...v, subject: (v as { cell: unknown }).cell } : v),
  z.object({
    clause: clauseId,
    title: z.string(),
    field: opt,
    /** The observed value, shown (JSON text, trimmed, redacted). */
    received: z.string(),
    allowed: z.string(),
    place: opt,
    valueClass: opt,
    subject: opt,
    key: opt,
    expectedStatus: z.union([z.number(), z.literal('2xx'), z.literal('4xx')]).optional(),
    served: z.number().optional(),
    exchange: z.object({ method: z.string(), url: z.string(), status: z.number(), contentType: z.string() }).optional(),
    /** A command that sends the request again, secrets as $API_KEY, $ACCOUNT_ID and the like. */
    curl: opt,
    /** The waiver that covers it (the failure does not fail its test). */
    waiver: z.object({ entry: z.number(), reason: z.string(), until: z.string() }).optional(),
    test: opt,
    file: opt,
    project: opt,
    sightings: z.number().optional(),
    /** In compare mode, the side whose run it is. */
    side: z.enum(['A', 'B']).optional(),
    error: z.literal(true).optional(),
  }),
);

export type Failure = z.infer<typeof failureSchema>;

/** What a test tried, per clause, place and value class. */
export const triedSchema = z.object({ clause: clauseId, place: opt, valueClass: opt });
export type Tried = z.infer<typeof triedSchema>;

/** The attachment every contract test carries its failures in (JSON: Failure[]). */
export const FAILURES_ATTACHMENT = 'failures';
/** The attachment with what a test tried, per clause, place and value class (JSON: Tried[]). */
export const TRIED_ATTACHMENT = 'tried';

export const show = (value: unknown, max = 200): string => {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
};

/** Secrets the reproduce command names instead of showing (`API_KEY` and the like); set from the test's configuration. */
let secretNames: SecretNames = {};
export function nameSecrets(names: SecretNames): void {
  secretNames = names;
}

/** The check as its record: the data kept apart, every string redacted. */
export function makeFailure({ ok: _ok, received, exchange: ex, ...check }: Omit<Check, 'ok'> & { ok?: boolean }, where: Where = {}): Failure {
  const f: Failure = { clause: check.clause, title: redact(check.title), received: redact(show(received)), allowed: redact(check.allowed) };
  if (check.field) f.field = redact(check.field);
  for (const k of ['place', 'valueClass', 'subject'] as const) if (where[k]) f[k] = redact(where[k]!);
  if (check.key) f.key = check.key;
  if (check.expectedStatus !== undefined) f.expectedStatus = check.expectedStatus;
  if (check.served !== undefined) f.served = check.served;
  if (ex) {
    f.exchange = { method: ex.method, url: shortenRuns(redact(ex.url)), status: ex.status, contentType: ex.contentType };
    f.curl = curlOf(ex, secretNames);
  }
  return f;
}

// The renderer: every text a failure is shown in, from its fields.

const whereText = (f: Failure) => [f.place, f.valueClass].filter(Boolean).join(' · ');

/** What failed, in words: "runtime 2025.04: nodeJsVersion is not v<major>.<minor>.<patch>". */
export const failureTitle = (f: Pick<Failure, 'subject' | 'field' | 'title'>) =>
  `${f.subject ? `${f.subject}: ` : ''}${f.field ? `${f.field} ` : ''}${f.title}`;

/** The failure for people (the test's error, junit's <failure>): the sentence, then received and allowed, then how to send it again. */
export function failureText(f: Failure): string {
  const where = whereText(f);
  const lines = [`${f.clause}${where ? ` [${where}]` : ''}: ${failureTitle(f)}`, `  received: ${f.received}`, `  allowed:  ${f.allowed}`];
  if (f.exchange) lines.push(`  request:  ${f.exchange.method} ${f.exchange.url} → ${f.exchange.status}`);
  if (f.curl) lines.push(`  reproduce: ${f.curl}`);
  return lines.join('\n');
}

/** Several failures as one message: what a test ends with. */
export function failuresText(failures: readonly Failure[]): string {
  const text = failures.map(failureText).join('\n\n');
  return failures.length === 1 ? text : `${failures.length} clause checks failed (${clausesOf(failures)}):\n\n${text}`;
}

export const clausesOf = (failures: readonly Failure[]) => [...new Set(failures.map((f) => f.clause))].join(', ');

/** One line, for a matrix row or a waived annotation; with how many times it was seen when more than once. */
export const failureLine = (f: Failure) => {
  const where = whereText(f);
  const seen = (f.sightings ?? 1) > 1 ? ` (seen ${f.sightings} times)` : '';
  return `${where ? `[${where}] ` : ''}${failureTitle(f)} (received ${f.received}; allowed ${f.allowed})${seen}`;
};

/** Longest received value on a console line: a body belongs in the reports. */
const MAX_RECEIVED = 80;
/** The console's words for a clause's first failure. */
/** A value allowed this short is said on the console too ("allowed 404"): a longer one is a rule, which the title says. */
const MAX_ALLOWED = 24;
export const consoleText = (f: Failure) =>
  `${failureTitle(f)} (received ${f.received.length > MAX_RECEIVED ? `${f.received.slice(0, MAX_RECEIVED)}…` : f.received}${f.allowed.length <= MAX_ALLOWED ? `; allowed ${f.allowed}` : ''})`;

export const clip = (s: string, max = 120) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** A request as compare shows it, by its path with its query: "GET /v1/runtimes/x → 200". */
export const requestLine = (method: string, path: string, status: number) => `${method} ${clip(path, 90)} → ${status}`;
const pathOf = (url: string) => (URL.canParse(url) ? `${new URL(url).pathname}${new URL(url).search}` : url);
/** The request a failure is about, or nothing. */
export const requestOf = ({ exchange: ex }: Pick<Failure, 'exchange'>) => (ex ? requestLine(ex.method, pathOf(ex.url), ex.status) : '');

/** A failure in a few words, for compare's headline: by the status it wanted, the requests served, the field and the value received, else its title. */
export function comparePhrase(f: Failure): string {
  const side = f.side ?? 'B';
  const got = f.exchange?.status;
  const on = f.exchange ? ` on ${f.exchange.method} ${clip(pathOf(f.exchange.url), 90)}` : '';
  const want = f.expectedStatus;
  // The other side verified the clause: it got what was expected.
  if (typeof want === 'number' && got !== undefined && got !== want) return side === 'B' ? `status ${want} vs ${got}${on}` : `status ${got} vs ${want}${on}`;
  if (typeof want === 'string' && got !== undefined) return `${side}: ${got} where a ${want} is due${on}`;
  if (f.served !== undefined) return `${side}: no 429 after ${f.served} requests${on}`;
  if (f.field) return `${side}: ${f.field} ${clip(f.title, 60)} (received ${clip(f.received, 40)})`;
  const received = f.received.length <= 24 ? ` (received ${f.received})` : '';
  return `${side}: ${clip(failureTitle(f), 72)}${received}`;
}

/** The error a test ends with: every failure it collected, as text; the data travels as an attachment. */
export class ClauseFailure extends Error {
  constructor(readonly failures: Failure[]) {
    super(failuresText(failures));
    this.name = 'ClauseFailure';
    // The failures are the message; a stack into the support code would only hide them.
    this.stack = this.message;
  }
}
