/**
 * AUTH: bearer key plus account header on every request, probed on the runtime operation. Each
 * rejection must be a 4xx with a JSON error body that never echoes the key.
 */
import { randomUUID } from 'node:crypto';
import { RUNTIME_VERSIONS } from '../support/document/facts';
import { checkErrorResponse } from '../support/checks/error-checks';
import { clauses, test } from '../support/fixtures';
import { fillPath } from '../support/spec/target';
import type { ClauseId } from '../support/document/clauses';
import type { HeaderOverrides } from '../support/http/client';

const RUNTIME = RUNTIME_VERSIONS[1];

interface Probe {
  name: string;
  clause: ClauseId;
  headers: (key: string, account: string, accountHeader: string) => HeaderOverrides;
}

/** What an Authorization value carries after its scheme: the part an error body must not echo. */
const credentialOf = (value: string | null | undefined) => value?.replace(/^(Bearer|Basic|Token) /i, '').trim() || undefined;

const fakeKey = () => `mon_${randomUUID().replace(/-/g, '')}`;

const PROBES: Probe[] = [
  { name: 'no Authorization header', clause: 'AUTH-1', headers: () => ({ authorization: null }) },
  { name: 'key in the Basic scheme', clause: 'AUTH-2', headers: (k) => ({ authorization: `Basic ${Buffer.from(`${k}:`).toString('base64')}` }) },
  { name: 'raw key in the Basic scheme', clause: 'AUTH-2', headers: (k) => ({ authorization: `Basic ${k}` }) },
  { name: 'key in the Token scheme', clause: 'AUTH-2', headers: (k) => ({ authorization: `Token ${k}` }) },
  { name: 'bare key without a scheme', clause: 'AUTH-2', headers: (k) => ({ authorization: k }) },
  { name: 'unknown bearer key', clause: 'AUTH-3', headers: () => ({ authorization: `Bearer ${fakeKey()}` }) },
  { name: 'empty bearer credentials', clause: 'AUTH-3', headers: () => ({ authorization: 'Bearer ' }) },
  { name: 'bearer key with a space inside', clause: 'AUTH-3', headers: (k) => ({ authorization: `Bearer ${k.slice(0, 8)} ${k.slice(8)}` }) },
  { name: 'bearer key with one character changed', clause: 'AUTH-3', headers: (k) => ({ authorization: `Bearer ${k.slice(0, -1)}${k.endsWith('x') ? 'y' : 'x'}` }) },
  { name: 'no account header', clause: 'AUTH-5', headers: (_k, _a, h) => ({ [h]: null }) },
  { name: 'empty account header', clause: 'AUTH-5', headers: (_k, _a, h) => ({ [h]: '' }) },
  { name: 'account header that is not a GUID', clause: 'AUTH-6', headers: (_k, _a, h) => ({ [h]: 'not-a-guid' }) },
  { name: 'account GUID with a character too many', clause: 'AUTH-6', headers: (_k, a, h) => ({ [h]: `${a}0` }) },
  { name: 'well-formed GUID of another account', clause: 'AUTH-6', headers: (_k, _a, h) => ({ [h]: randomUUID() }) },
];

test.describe('authentication', () => {
  test('a valid bearer key with the account header is accepted', { annotation: clauses('AUTH-4') }, async ({ contract, target }) => {
    await contract.send(target.runtimeOp, 'GET', fillPath(target.runtimePath, RUNTIME), 'valid', 'AUTH-4');
  });

  for (const probe of PROBES) {
    test(`rejects: ${probe.name}`, { annotation: clauses(probe.clause, 'AUTH-7') }, async ({ contract, target, config, verdict }) => {
      const headers = probe.headers(config.apiKey, config.accountId, target.accountHeader);
      const sentKeys = [config.apiKey, credentialOf(headers.authorization)].filter((k): k is string => !!k);
      const ex = await contract.send(target.runtimeOp, 'GET', fillPath(target.runtimePath, RUNTIME), 'invalid', probe.clause, { headers });
      checkErrorResponse(verdict, ex, sentKeys);
    });
  }

  test('rejects the second account\'s GUID with the first account\'s key', { annotation: clauses('AUTH-6', 'AUTH-7') }, async ({ contract, target, config, verdict }) => {
    test.skip(!config.second, 'SECOND_ACCOUNT_ID is not set: no other real account to try');
    const ex = await contract.send(target.runtimeOp, 'GET', fillPath(target.runtimePath, RUNTIME), 'invalid', 'AUTH-6', { headers: { [target.accountHeader]: config.second!.accountId } });
    checkErrorResponse(verdict, ex, [config.apiKey]);
  });
});
