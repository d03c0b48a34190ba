/**
 * AUTH: bearer key plus account header on every authenticated operation the suite calls. The cases
 * come from the table (support/auth/table.ts): at each place the valid request is served (AUTH-4) and
 * each probe is refused with a 4xx and a JSON error body that never echoes the key (AUTH-7).
 */
import { AUTH_PROBES, authCases, type AuthCase } from '../support/auth/table';
import { requestsAt } from '../support/auth/requests';
import { sendProbe, sendValid } from '../support/auth/send';
import { clauses, test } from '../support/test';

const title = (c: AuthCase) =>
  c.probe
    ? `${c.place}: ${c.probe.expect === 'either' ? 'either serves or refuses' : 'rejects'} ${c.probe.name}`
    : `${c.place}: a valid bearer key with the account header is served`;

test.describe('authentication', () => {
  for (const c of authCases(AUTH_PROBES)) {
    // A probe provokes an error answer: its body is checked too (ERR-3, ERR-4, AUTH-7).
    const annotation = c.probe ? clauses(c.probe.clause, 'AUTH-7', 'ERR-3', 'ERR-4', 'SPEC-9') : clauses('AUTH-4', 'SPEC-9');
    test(title(c), { annotation }, async ({ api, contract, verdict, config, target, spec, validator }) => {
      const resolved = await requestsAt(c.place, target, config, (path) => api.call('GET', path));
      test.skip('skip' in resolved, 'skip' in resolved ? resolved.skip : '');
      const fx = { api, contract, verdict, config, target, spec, validator };
      for (const r of 'requests' in resolved ? resolved.requests : []) {
        if (c.probe) await sendProbe(fx, c.place, r, c.probe);
        else await sendValid(fx, r);
      }
      test.skip(!c.probe && verdict.checked === 0, `${c.place}: no route of this place that the spec declares is served by the target`);
    });
  }
});
