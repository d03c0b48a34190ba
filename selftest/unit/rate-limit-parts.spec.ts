// The rate-limit family's pure parts: header reading and RL-6 checks, the request ledger, key roles,
// the last run's record, and which routes are probed once the key is limited.
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { readLimitHeaders } from '../../support/rate-limit/headers';
import { burstHeaderProblems, checkValues } from '../../support/rate-limit/header-checks';
import { headerCount } from '../../support/rate-limit/assessment';
import type { Reply } from '../../support/rate-limit/burst';
import { credentialCandidates, keyTag, ledgerSize, readLedger, recordExchanges, sentTimes } from '../../support/http/request-ledger';
import { runFiles, setRunDir } from '../../support/run/run-files';
import { knownPrior } from '../../support/rate-limit/known-prior';
import { keyRoles, refusedProbeCredentials } from '../../support/rate-limit/keys';
import { LAST_RUN_FILE, readLastRun, writeLastRun } from '../../support/rate-limit/known-prior';
import { routeProbes } from '../../support/rate-limit/route-probes';
import { readConfig, type Config } from '../../support/run/config';
import { buildSpec } from '../../support/spec/spec';
import { parseSpecText } from '../../support/spec/spec-source';
import { resolveTarget } from '../../support/spec/target';

const LIMIT = { max: 10, windowSeconds: 60 };
const at = Date.parse('2026-08-18T12:00:00Z');

/** Served replies of a fresh window with honest headers (remaining 9..0), then a 429. */
function burstReplies(edit: (h: Record<string, string>, i: number) => void = () => {}): Reply[] {
  const replies: Reply[] = [];
  for (let i = 0; i < 11; i++) {
    const served = i < 10;
    const headers: Record<string, string> = { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': String(served ? 9 - i : 0), 'x-ratelimit-reset': '60' };
    if (!served) headers['retry-after'] = '60';
    edit(headers, i);
    replies.push({ i, sentAt: at + i, at: at + i + 1, status: served ? 200 : 429, headers });
  }
  return replies;
}
/** The decisive burst as measureLimit reports it: its replies, the limit held (with `refilled` beyond it), in a fresh window or not. */
const decisive = (replies: Reply[], { fresh = true, refilled = 0 } = {}) => ({
  outcome: { kind: 'holds' as const, limit: LIMIT.max, refilled },
  measurements: [
    { replies, confirmations: [], baseFrom: fresh ? ('fresh' as const) : undefined, refusals: replies.filter((r) => r.status === 429), served: 10 },
  ],
});
const problemsOf = (replies: Reply[]) => burstHeaderProblems(decisive(replies), LIMIT)!.lines;

test.describe('rate-limit headers', () => {
  test('X-RateLimit-* and Retry-After in seconds', () => {
    expect(readLimitHeaders({ 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '42', 'retry-after': '42' }, at)).toMatchObject({
      limit: 600,
      remaining: 0,
      reset: 42,
      resetUnit: 'seconds-until',
      retryAfter: 42,
      problems: [],
    });
  });
  test('RateLimit-* with a policy list, reset as epoch seconds, Retry-After as a date', () => {
    const h = readLimitHeaders(
      {
        'RateLimit-Limit': '600, 600;w=60',
        'RateLimit-Remaining': '12',
        'RateLimit-Reset': String(at / 1000 + 30),
        'Retry-After': new Date(at + 30_000).toUTCString(),
      },
      at,
    );
    expect(h).toMatchObject({ limit: 600, remaining: 12, reset: 30, resetUnit: 'epoch-seconds', retryAfter: 30 });
    expect(h.names).toHaveLength(4);
  });
  test('structured RateLimit and RateLimit-Policy (draft 8+) and draft 7', () => {
    expect(readLimitHeaders({ ratelimit: '"default";r=5;t=20', 'ratelimit-policy': '"default";q=600;w=60' }, at)).toMatchObject({
      limit: 600,
      remaining: 5,
      reset: 20,
    });
    expect(readLimitHeaders({ ratelimit: 'limit=100, remaining=3, reset=9' }, at)).toMatchObject({ limit: 100, remaining: 3, reset: 9 });
  });
  test('nonsense is reported, absence is not', () => {
    expect(readLimitHeaders({ 'retry-after': 'soon', 'x-ratelimit-remaining': 'lots' }, at).problems).toHaveLength(2);
    expect(readLimitHeaders({ 'content-type': 'application/json' }, at)).toMatchObject({ names: [], problems: [] });
  });
});

test.describe('RL-6 over a burst', () => {
  test('honest headers: no problem, and they account for the window', () => {
    expect(problemsOf(burstReplies())).toEqual([]);
    expect(headerCount(burstReplies())).toMatchObject({ limit: 10, remainingMax: 9, counted: 0, consistent: true });
  });
  test("each lie of the reference's rl-headers faults is caught", () => {
    const lies: Array<[string, (h: Record<string, string>) => void, RegExp]> = [
      ['remaining-stuck', (h) => (h['x-ratelimit-remaining'] = '10'), /more than limit - 1|repeated/],
      ['remaining-off', (h) => (h['x-ratelimit-remaining'] = String(Number(h['x-ratelimit-remaining']) + 1)), /left 1 remaining, not 0|more than limit - 1/],
      ['limit-wrong', (h) => (h['x-ratelimit-limit'] = '110'), /limit header says 110/],
      ['reset-ms', (h) => (h['x-ratelimit-reset'] = '60000'), /puts the reset 60000 s away/],
      ['retry-after-zero', (h) => h['retry-after'] !== undefined && (h['retry-after'] = '0'), /Retry-After 0 on a 429/],
      ['retry-after-long', (h) => h['retry-after'] !== undefined && (h['retry-after'] = '600'), /longer than the 60 s window/],
    ];
    for (const [name, lie, expected] of lies) expect(problemsOf(burstReplies(lie)).join(' | '), name).toMatch(expected);
  });
  test('X-RateLimit-Reset as epoch seconds is fine; RateLimit-Reset as an epoch is not its unit', () => {
    const epoch = burstReplies((h) => (h['x-ratelimit-reset'] = String(Math.ceil(at / 1000) + 60)));
    expect(problemsOf(epoch)).toEqual([]);
    const ietf = checkValues(
      readLimitHeaders({ 'ratelimit-limit': '10', 'ratelimit-remaining': '3', 'ratelimit-reset': String(Math.ceil(at / 1000) + 30) }, at),
      200,
      { global: LIMIT },
    );
    expect(ietf.problems.join()).toMatch(/epoch time; the IETF drafts define seconds until the reset/);
  });
  test('a refilling bucket may repeat a remaining value as often as it refilled', () => {
    const replies = burstReplies((h, i) => i === 5 && (h['x-ratelimit-remaining'] = '5'));
    expect(burstHeaderProblems(decisive(replies, { fresh: false, refilled: 1 }), LIMIT)!.lines).toEqual([]);
    expect(burstHeaderProblems(decisive(replies, { fresh: false }), LIMIT)!.lines.join()).toMatch(/repeated 1 time/);
  });
});

test.describe('request ledger', () => {
  test.beforeEach(() => {
    setRunDir(mkdtempSync(join(tmpdir(), 'ledger-unit-')));
  });

  test('what an Authorization value carries, in any scheme', () => {
    const key = 'mon_demo_4f7c1e9a2b6d4e0f8a3c5b7d9e1f2a4c';
    expect(credentialCandidates(`Bearer ${key}`)).toEqual([key]);
    expect(credentialCandidates(`Token ${key}`)).toEqual([key]);
    expect(credentialCandidates(key)).toEqual([key]);
    expect(credentialCandidates(`Basic ${Buffer.from(`${key}:`).toString('base64')}`)).toContain(key);
    expect(credentialCandidates(`Bearer ${key.slice(0, 8)} ${key.slice(8)}`)).not.toContain(key);
    expect(credentialCandidates(undefined)).toEqual([]);
  });

  test('keys are hashed; counts by what came back', () => {
    recordExchanges([{ at: 1000, authorization: 'Bearer secret-key-1', method: 'get', url: 'http://h/v1/runtimes/2026.04?x=1', status: 401 }]);
    recordExchanges([{ at: 2000, authorization: 'Token secret-key-1', method: 'GET', url: 'http://h/v1/checks/1', status: 0 }]);
    const text = readFileSync(runFiles().ledger!, 'utf8');
    expect(text).not.toContain('secret-key-1');
    const entries = readLedger();
    expect(entries).toEqual([
      { at: 1000, tags: [keyTag('secret-key-1')], bearer: true, method: 'GET', path: '/v1/runtimes/2026.04', status: 401 },
      { at: 2000, tags: [keyTag('secret-key-1')], bearer: false, method: 'GET', path: '/v1/checks/1', status: 0 },
    ]);
    expect(sentTimes('secret-key-1', 1500)).toEqual([2000]);
    expect(knownPrior('secret-key-1', 0)).toMatchObject({ count: 2, kinds: { refused: 1, unanswered: 1 } });
    expect(knownPrior('secret-key-1', 0, { path: '/v1/checks/1' }).count).toBe(1);
  });

  test("a batch is read whole, beside another worker's lines, in send order", () => {
    recordExchanges([
      { at: 3000, authorization: 'Bearer k', method: 'GET', url: 'http://h/a', status: 200 },
      { at: 1000, authorization: 'Bearer k', method: 'GET', url: 'http://h/b', status: 429 },
    ]);
    expect(ledgerSize()).toBe(2);
    // Another worker appends through a descriptor of its own.
    appendFileSync(runFiles().ledger!, `2000\t${keyTag('k')}\tb\tGET\t/c\t503\n`);
    recordExchanges([{ at: 4000, authorization: 'Bearer k', method: 'GET', url: 'http://h/d', status: 0 }]);
    expect(readLedger().map((e) => [e.path, e.status])).toEqual([
      ['/b', 429],
      ['/c', 503],
      ['/a', 200],
      ['/d', 0],
    ]);
    expect(ledgerSize()).toBe(4);
  });
});

const configOf = (env: Record<string, string>): Config => readConfig({ CONTRACT_EMBEDDED_PORT: '3000', ...env });

test.describe('key roles', () => {
  test('the burst spends a key nothing else uses; refused probes never use it when another key exists', () => {
    // The embedded service has a key of the demo account for the burst alone: the second key is free for the probes.
    const embedded = configOf({});
    expect(keyRoles(embedded).burst.source).toBe('BURST_API_KEY');
    expect(refusedProbeCredentials(embedded).which).toBe('second');
    const secondAsBurst = configOf({
      BASE_URL: 'https://x.example',
      API_KEY: 'main-key-1234',
      ACCOUNT_ID: '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c',
      SECOND_API_KEY: 'second-key-1234',
      SECOND_ACCOUNT_ID: '8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d',
    });
    expect(keyRoles(secondAsBurst).burst.source).toBe('SECOND_API_KEY');
    expect(refusedProbeCredentials(secondAsBurst).which).toBe('main');
    const withBurst = configOf({ BURST_API_KEY: 'burst-key-123' });
    expect(keyRoles(withBurst).burst).toMatchObject({ source: 'BURST_API_KEY', apiKey: 'burst-key-123', accountId: withBurst.accountId });
    expect(refusedProbeCredentials(withBurst).which).toBe('second');
    const oneKey = configOf({ BASE_URL: 'https://x.example', API_KEY: 'only-key-1234', ACCOUNT_ID: '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c' });
    expect(keyRoles(oneKey).burst.source).toBe('API_KEY');
    expect(keyRoles(oneKey).other).toBeUndefined();
  });
  test('BURST_API_KEY must be a key of its own', () => {
    expect(() => configOf({ BURST_API_KEY: 'mon_demo_4f7c1e9a2b6d4e0f8a3c5b7d9e1f2a4c' })).toThrow(/BURST_API_KEY must be a key of its own/);
    expect(() => configOf({ BURST_ACCOUNT_ID: '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c' })).toThrow(/without BURST_API_KEY/);
  });
});

test("the last run's record: only its last window, only for its target", () => {
  const dir = mkdtempSync(join(tmpdir(), 'last-run-'));
  const now = 100_000;
  writeLastRun(
    dir,
    'https://a.example',
    60,
    [
      { at: now - 70_000, tags: ['t1'], bearer: true, method: 'GET', path: '/x', status: 200 },
      { at: now - 5_000, tags: ['t1'], bearer: true, method: 'GET', path: '/x', status: 200 },
    ],
    now,
  );
  expect(readFileSync(join(dir, LAST_RUN_FILE), 'utf8')).not.toContain('/x');
  expect(readLastRun(dir, 'https://a.example')?.requests).toEqual([{ at: now - 5_000, tags: ['t1'], bearer: true, status: 200 }]);
  expect(readLastRun(dir, 'https://b.example')).toBeUndefined();
});

test('routes probed once the key is limited: check read, update with a body that changes nothing, other GETs the run used', async () => {
  const file = join(__dirname, '../../specs/openapi.json');
  const spec = await buildSpec(parseSpecText(readFileSync(file, 'utf8'), file), file);
  const config = configOf({});
  const target = resolveTarget(spec, config);
  const ledger = [{ at: 1, tags: [], bearer: true, method: 'GET', path: '/v1/runtimes', status: 200 }];
  const probes = routeProbes(config, spec, target, { authorization: 'Bearer k' }, { skipPaths: ['/v1/runtimes/2026.04'], ledger });
  expect(probes.map((p) => `${p.place} ${p.method} ${p.path}`)).toEqual([
    `check-read GET /v1/checks/${config.checkId}`,
    `check-update PUT /v1/checks/${config.checkId}`,
    'spec GET /openapi.json',
    'GET /v1/runtimes GET /v1/runtimes',
  ]);
  expect(probes[1].body).toBe('{}');
  const skipped = routeProbes(config, spec, target, {}, { skipPaths: ['/v1/runtimes'], ledger });
  expect(skipped.map((p) => p.place)).not.toContain('GET /v1/runtimes');
});
