/**
 * The contract tests' one HTTP client: the configured credentials, every exchange kept, requests counted. It never lets the suite throttle
 * itself: it paces under the expected limit (all workers, through the request ledger) and waits out an unexpected 429 a few times.
 */
import type { TestInfo } from '@playwright/test';
import type { Config, RateLimit } from '../run/config';
import type { Exchange } from './exchange';
import { noticeWait } from '../run/wait-notice';
import { credentialCandidates, ledgerSize, readLedger, recordExchanges, sentTimes } from './request-ledger';
import { redact, registerSecret } from './redact';
import { SuiteError } from '../run/suite-error';
import { headerValue, sendRaw } from './transport';
import { readLimitHeaders } from '../rate-limit/headers';
import { DOCUMENTED_RATE_LIMIT } from '../document/facts';

export type HeaderOverrides = Record<string, string | null>;

export interface CallOptions {
  query?: Record<string, string>;
  /** Replaces or (with null) removes headers, whatever their case; `authorization` and the account header included. */
  headers?: HeaderOverrides;
  /** A JSON body (serialised here) or a raw string. */
  body?: unknown;
  rawBody?: string;
  /** The test expects 429 (the burst): no retry. */
  expect429?: boolean;
  /** Headers sent as several lines of one name (a second Authorization header), after `headers` has set or removed them. */
  repeated?: Record<string, string[]>;
  /** The path sent as written: dot segments and double slashes kept, not resolved by the URL parser. */
  pathAsWritten?: boolean;
}

export type Credentials = Pick<Config, 'apiKey' | 'accountId'> & { accountHeader: string };

/** Longest wait for an unexpected 429, so a target that never resets cannot hang the run. */
const MAX_THROTTLE_WAIT_S = 65;
const MAX_THROTTLE_RETRIES = 3;

/** The reserve of a key's window the rate-limit tests beside the contract tests may need of it (a route's own burst): see contractReserve. */
export const fullReserve = (limit: RateLimit) => Math.min(50, Math.floor(limit.max * 0.2));

/** Requests per window the contract tests may send with one key: the limit less what the rate-limit tests beside them may need of it. */
export const paceBudget = (limit: RateLimit, reserve = fullReserve(limit)) => Math.max(1, limit.max - reserve);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export class ApiClient {
  /** Every exchange, in the order its request was sent (not the order the answers came back in: two runs list them alike). */
  readonly log: Exchange[] = [];
  private sent = 0;
  private readonly sentAs = new WeakMap<Exchange, number>();

  constructor(
    private readonly baseUrl: string,
    private readonly credentials: Credentials,
    private readonly info?: TestInfo,
    private readonly limit: RateLimit = DOCUMENTED_RATE_LIMIT,
    /** What the client leaves of its key's window (paceBudget); the full reserve unless the caller knows less is needed. */
    private readonly reserve = fullReserve(limit),
  ) {
    // Whatever key a test hands the client (a second key, a probe's), no report shows it.
    registerSecret(credentials.apiKey);
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<Exchange> {
    let exchange = await this.send(method, path, options);
    for (let retry = 1; exchange.status === 429 && !options.expect429 && retry <= MAX_THROTTLE_RETRIES; retry++) {
      const waitS = Math.min(retryAfterSeconds(exchange.headers) ?? this.limit.windowSeconds, MAX_THROTTLE_WAIT_S);
      this.info?.annotations.push({
        type: 'throttled',
        description: `${method} ${path}: 429, waited ${waitS} s and retried (${retry} of ${MAX_THROTTLE_RETRIES})`,
      });
      await this.wait(waitS * 1000, `${method} ${path} answered 429 unexpectedly; retrying after the window`);
      exchange = await this.send(method, path, options);
    }
    return exchange;
  }

  /** Waits while the suite has used its share of the window with this key (all workers); refused requests count too, as a limiter may count them. */
  private async pace(authorization: string | undefined): Promise<void> {
    const keys = credentialCandidates(authorization);
    if (!keys.length) return;
    const windowMs = this.limit.windowSeconds * 1000;
    const budget = paceBudget(this.limit, this.reserve);
    // Fewer requests in the whole ledger than the budget: no key can have used it up.
    if (ledgerSize() < budget) return;
    for (let round = 0; round < 10; round++) {
      const now = Date.now();
      const entries = readLedger();
      const times = keys.map((k) => sentTimes(k, now - windowMs, entries)).reduce((a, b) => (b.length > a.length ? b : a));
      if (times.length < budget) return;
      const waitMs = Math.min(times[times.length - budget] + windowMs - now + 20, windowMs);
      if (round === 0)
        this.info?.annotations.push({
          type: 'paced',
          description: `waited ${Math.ceil(waitMs / 1000)} s to stay under ${this.limit.max} requests per ${this.limit.windowSeconds} s`,
        });
      await this.wait(waitMs, `to stay under ${this.limit.max} requests per ${this.limit.windowSeconds} s (the rate limit)`);
    }
  }

  /** Waiting for the target's window is not the test's slowness: the test gets the time back. */
  private async wait(ms: number, why: string): Promise<void> {
    if (this.info && this.info.timeout > 0) this.info.setTimeout(this.info.timeout + ms);
    noticeWait(ms, `${this.info?.title ?? 'a test'}: ${why}`);
    await sleep(ms);
  }

  private headersFor(options: CallOptions): Record<string, string> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.credentials.apiKey}`,
      [this.credentials.accountHeader]: this.credentials.accountId,
      accept: 'application/json',
    };
    if (options.body !== undefined || options.rawBody !== undefined) headers['content-type'] = 'application/json';
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      for (const k of Object.keys(headers)) if (k.toLowerCase() === name.toLowerCase()) delete headers[k];
      if (value !== null) headers[name] = value;
    }
    return headers;
  }

  private async send(method: string, path: string, options: CallOptions): Promise<Exchange> {
    const order = this.sent++;
    const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
    const url = `${this.baseUrl}${path}${query}`;
    const headers = this.headersFor(options);
    const lines: Record<string, string | string[]> = { ...headers, ...options.repeated };
    // The exchange shows a repeated header as one line, as a recipient may join it (RFC 9110 section 5.3).
    for (const [name, values] of Object.entries(options.repeated ?? {})) headers[name] = values.join(', ');
    const requestBody = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const authorization = headerValue(headers, 'authorization');
    await this.pace(authorization);
    const started = Date.now();
    const res = await sendRaw(url, {
      method,
      headers: lines,
      body: requestBody === undefined ? undefined : Buffer.from(requestBody),
      timeoutMs: 15_000,
      asWritten: options.pathAsWritten,
    }).catch((e: Error) => ({ status: 0, error: e }));
    recordExchanges([{ at: started, authorization, method, url, status: res.status }]);
    // An error may quote the request: never let the key reach a report that way.
    if ('error' in res) throw new SuiteError('cannot-test', redact(`${method} ${url} failed: ${res.error.message.split('\n')[0]}`));
    let json: unknown;
    try {
      json = res.text.length ? JSON.parse(res.text) : undefined;
    } catch {
      json = undefined;
    }
    const exchange: Exchange = {
      method,
      url,
      requestHeaders: headers,
      requestBody,
      ...res,
      json,
      contentType: res.headers['content-type'] ?? '',
      ms: Date.now() - started,
    };
    this.sentAs.set(exchange, order);
    let at = this.log.length;
    while (at > 0 && this.sentAs.get(this.log[at - 1])! > order) at--;
    this.log.splice(at, 0, exchange);
    return exchange;
  }
}

/** Seconds to wait, from Retry-After (seconds or HTTP date) or a reset header (seconds or an epoch time), as RL-6 reads them. */
export function retryAfterSeconds(headers: Record<string, string>): number | undefined {
  const { retryAfter, reset, resetRaw } = readLimitHeaders(headers);
  const seconds = retryAfter ?? (resetRaw ? reset : undefined);
  return seconds === undefined ? undefined : Math.max(0, Math.ceil(seconds));
}
