/**
 * AUTH: bearer key plus account header on every authenticated operation the suite calls. The cases
 * come from the table (support/auth/table.ts): at each place the valid request is served (AUTH-4) and
 * every probe is refused with a 4xx and a JSON error body that never echoes the key (AUTH-7); one test
 * per place, each probe's checks stamped with its own value class.
 */
import { AUTH_PLACES, AUTH_PROBES, probeApplies, RULE_CLAUSE } from '../support/auth/table';
import { requestsAt } from '../support/auth/requests';
import { sendProbe, sendValid } from '../support/auth/send';
import { clauses, test } from '../support/test';

// A probe provokes an error answer: its body is checked too (ERR-3, ERR-4, AUTH-7).
const details = clauses('AUTH-4', ...new Set(AUTH_PROBES.map((p) => RULE_CLAUSE[p.rule])), 'AUTH-7', 'ERR-3', 'ERR-4', 'SPEC-9');

test.describe('authentication', () => {
  for (const place of AUTH_PLACES) {
    const probes = AUTH_PROBES.filter((p) => probeApplies(p, place));
    test(
      `${place}: a valid bearer key with the account header is served, every other credential refused`,
      details,
      async ({ api, contract, verdict, config, target, spec, validator }) => {
        const fixtures = { api, contract, verdict, config, target, spec, validator };
        const resolved = await requestsAt(place, target, config, (path) => api.call('GET', path));
        test.skip('skip' in resolved, 'skip' in resolved ? resolved.skip : '');
        for (const r of 'requests' in resolved ? resolved.requests : []) {
          // The valid request first: a route the target does not serve is no place to try credentials at.
          // Each probe is refused whatever the others got: sent at once.
          if (await sendValid(fixtures, place, r)) await Promise.all(probes.map((probe) => sendProbe(fixtures, place, r, probe)));
        }
        test.skip(verdict.tried.length === 0, `${place}: no route of this place that the spec declares is served by the target`);
      },
    );
  }
});
