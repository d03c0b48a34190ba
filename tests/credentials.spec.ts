/**
 * AUTH: bearer key plus account header on every authenticated operation the suite calls. The cases
 * come from the table (support/auth/table.ts): at each place the valid request is served (AUTH-4) and
 * every probe is refused with a 4xx and a JSON error body that never echoes the key (AUTH-7); one test
 * per place and rule, each probe stamped with its own value class.
 */
import { AUTH_PROBES, authGroups, RULE_CLAUSE, RULE_TITLE, type AuthGroup } from '../support/auth/table';
import { requestsAt } from '../support/auth/requests';
import { sendProbe, sendValid } from '../support/auth/send';
import { clauses, test } from '../support/test';

const title = (g: AuthGroup) => (g.rule ? `${g.place}: rejects ${RULE_TITLE[g.rule]}` : `${g.place}: a valid bearer key with the account header is served`);

test.describe('authentication', () => {
  for (const g of authGroups(AUTH_PROBES)) {
    // A probe provokes an error answer: its body is checked too (ERR-3, ERR-4, AUTH-7).
    const annotation = g.rule ? clauses(RULE_CLAUSE[g.rule], 'AUTH-7', 'ERR-3', 'ERR-4', 'SPEC-9') : clauses('AUTH-4', 'SPEC-9');
    test(title(g), { annotation }, async ({ api, contract, verdict, config, target, spec, validator }) => {
      const resolved = await requestsAt(g.place, target, config, (path) => api.call('GET', path));
      test.skip('skip' in resolved, 'skip' in resolved ? resolved.skip : '');
      const fx = { api, contract, verdict, config, target, spec, validator };
      for (const r of 'requests' in resolved ? resolved.requests : []) {
        if (!g.rule) await sendValid(fx, r);
        // Each probe is refused whatever the others did, so their order cannot matter: sent at once.
        await Promise.all(g.probes.map((probe) => sendProbe(fx, g.place, r, probe)));
      }
      test.skip(!g.rule && verdict.checked === 0, `${g.place}: no route of this place that the spec declares is served by the target`);
    });
  }
});
