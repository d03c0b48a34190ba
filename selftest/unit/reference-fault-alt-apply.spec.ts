// auth-alt and apply-before: a key offered elsewhere is taken only from the place the row names, and
// an update refused for a rule is applied first only under that rule's row (and still refused).
import { expect, test } from '@playwright/test';
import { APPLY_BEFORE_RULES } from '../faults/catalogue/fault-kinds';
import { AUTH, DEMO_ACCOUNT_ID, DEMO_KEY, SEEDED_API_CHECK_ID, service } from './reference-testing';

const acct = { 'x-service-account': DEMO_ACCOUNT_ID };
const OFFERS = {
  'query:api_key': { url: `/v1/runtimes/2025.04?api_key=${DEMO_KEY}`, headers: acct },
  'cookie:token': { url: '/v1/runtimes/2025.04', headers: { ...acct, cookie: `other=1; token=${DEMO_KEY}` } },
  'header:x-api-key': { url: '/v1/runtimes/2025.04', headers: { ...acct, 'x-api-key': DEMO_KEY } },
  'header:authentication': { url: '/v1/runtimes/2025.04', headers: { ...acct, authentication: `Bearer ${DEMO_KEY}` } },
} as const;

test('auth-alt:<where>:<name> takes the key from that place only, and never over an Authorization header', async () => {
  for (const row of Object.keys(OFFERS)) {
    const app = await service([`auth-alt:${row}`]);
    try {
      for (const [other, req] of Object.entries(OFFERS)) {
        const res = await app.inject({ method: 'GET', ...req });
        expect(res.statusCode, `${row} offered as ${other}`).toBe(other === row ? 200 : 401);
      }
      const wrong = await app.inject({
        method: 'GET',
        ...OFFERS[row as keyof typeof OFFERS],
        headers: { ...OFFERS[row as keyof typeof OFFERS].headers, authorization: 'Bearer nope' },
      });
      expect(wrong.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  }
});

const REFUSED: Record<(typeof APPLY_BEFORE_RULES)[number], { headers: Record<string, string>; query?: string }> = {
  key: { headers: acct },
  scheme: { headers: { ...acct, authorization: `Token ${DEMO_KEY}` } },
  'unknown-key': { headers: { ...acct, authorization: `Bearer ${DEMO_KEY}x` } },
  'account-missing': { headers: { authorization: AUTH.authorization } },
  'account-empty': { headers: { authorization: AUTH.authorization, 'x-service-account': '' } },
  'account-malformed': { headers: { authorization: AUTH.authorization, 'x-service-account': 'acme' } },
  'account-other': { headers: { authorization: AUTH.authorization, 'x-service-account': '00000000-0000-4000-8000-000000000000' } },
  query: { headers: { ...AUTH }, query: '?autoAssignAlerts=maybe' },
};

for (const rule of APPLY_BEFORE_RULES) {
  test(`apply-before:${rule} applies a body refused for ${rule}, and only that one`, async () => {
    const app = await service([`apply-before:${rule}`]);
    try {
      for (const [other, r] of Object.entries(REFUSED)) {
        const name = `renamed ${other}`;
        const res = await app.inject({ method: 'PUT', url: `/v1/checks/${SEEDED_API_CHECK_ID}${r.query ?? ''}`, headers: r.headers, payload: { name } });
        expect(res.statusCode, other).toBeGreaterThanOrEqual(400);
        const read = await app.inject({ url: `/v1/checks/${SEEDED_API_CHECK_ID}`, headers: AUTH });
        expect(read.json().name === name, `${other} applied`).toBe(other === rule);
      }
    } finally {
      await app.close();
    }
  });
}
