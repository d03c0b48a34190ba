/** The update's rejections (CU-7 whatever the cause) as cells: what each one sends beside the valid changes the runner adds. */
import { expect, test } from '@playwright/test';
import { RULE_CLAUSE, type AuthRule } from '../../support/auth/table';
import { CREDENTIAL_PROBES, OVER_LIMIT_CHARS, rejectionCells, type RejectionContext } from '../../support/check-update/rejections';
import type { Config } from '../../support/run/config';
import { resolveVocabulary } from '../../support/check-update/vocabulary';

const HEADER = 'X-Service-Account';
const config = {
  apiKey: 'mon_main_0123456789abcdef0123456789abcdef',
  accountId: '11111111-2222-4333-8444-555555555555',
  second: { apiKey: 'mon_second_fedcba9876543210fedcba98765432', accountId: '66666666-7777-4888-9999-aaaaaaaaaaaa' },
} as unknown as Config;
const ctx: RejectionContext = {
  config,
  accountHeader: HEADER,
  queryParam: 'autoAssignAlerts',
  query: { autoAssignAlerts: 'false' },
  vocabulary: { ...resolveVocabulary(undefined), description: 'description' },
  burstRuns: false,
};
const byId = (id: string, c = ctx) => rejectionCells('api', c).cells.find((x) => x.valueClass === `api:refused:${id}`);

test('a refusal for each rule of the credentials, with the main key at its own check', () => {
  expect(new Set(CREDENTIAL_PROBES.map((p) => p.rule))).toEqual(new Set(Object.keys(RULE_CLAUSE) as AuthRule[]));
  for (const p of CREDENTIAL_PROBES) {
    const o = byId(p.id)!;
    expect(o, p.id).toMatchObject({ body: {}, expect: 'invalid', clause: p.clause, title: p.name });
    const headers = { authorization: `Bearer ${config.apiKey}`, [HEADER]: config.accountId, ...o.headers };
    // Only what the probe breaks differs from a valid update.
    if (p.rule === 'key') expect(headers.authorization).toBeNull();
    else if (p.rule.startsWith('account')) {
      expect(headers.authorization).toBe(`Bearer ${config.apiKey}`);
      expect(headers[HEADER]).not.toBe(config.accountId);
    } else expect(headers.authorization).not.toBe(`Bearer ${config.apiKey}`);
  }
  const other = byId('account-other')!;
  expect(other.headers![HEADER]).toBe(config.second!.accountId);
});

test('the body that is not JSON, the one over the limit is over 2 MiB, the query says maybe; those a target must refuse first', () => {
  expect(byId('not-json')).toMatchObject({ body: {}, trailingComma: true, expect: 'invalid' });
  const big = byId('over-size-limit')!;
  expect(JSON.stringify(big.body).length).toBeGreaterThan(2 * 1024 * 1024);
  expect((big.body as Record<string, string>).description.length).toBe(OVER_LIMIT_CHARS);
  expect(byId('query-not-boolean')).toMatchObject({ query: { autoAssignAlerts: 'maybe' }, expect: 'either' });
  expect(rejectionCells('api', ctx).cells.at(-1)!.expect).toBe('either');
});

test('a target without a query parameter or a description gets neither of those rejections', () => {
  const bare = { ...ctx, queryParam: undefined, vocabulary: resolveVocabulary(undefined) };
  expect(byId('query-not-boolean', bare)).toBeUndefined();
  expect(byId('over-size-limit', bare)).toBeUndefined();
  expect(rejectionCells('api', bare).notSent).toHaveLength(2);
  expect(rejectionCells('api', { ...bare, config: { ...config, second: undefined } as Config }).notSent).toHaveLength(3);
});

test("another account's own key and account: CU-8, sent only where that key is not the burst's in this run", () => {
  expect(byId('foreign-account')).toMatchObject({
    body: {},
    clause: 'CU-8',
    expect: 'invalid',
    headers: { authorization: `Bearer ${config.second!.apiKey}`, [HEADER]: config.second!.accountId },
  });
  const burstOn = { ...config, burst: true } as Config;
  // The second key is the burst's (no BURST_API_KEY): kept fresh for it when the burst runs.
  expect(byId('foreign-account', { ...ctx, config: burstOn, burstRuns: true })).toBeUndefined();
  expect(byId('foreign-account', { ...ctx, config: burstOn, burstRuns: false })).toBeDefined();
  expect(
    byId('foreign-account', { ...ctx, config: { ...burstOn, burstKey: { apiKey: 'mon_burst', accountId: config.accountId } } as Config, burstRuns: true }),
  ).toBeDefined();
  expect(byId('foreign-account', { ...ctx, config: { ...config, second: undefined } as Config })).toBeUndefined();
});
