/**
 * ERR: the error bodies of the errors the suite provokes beyond authentication and runtime ids, from
 * the table in support/checks/error-cases.ts: unknown checks (read and update), the check read with
 * another account's own credentials, and update bodies that are no JSON object. Each must be refused with a 4xx (never a 5xx) and a JSON error body whose
 * statusCode is the status (ERR-3, ERR-4; ERR-1 for a 404) that never echoes the key (AUTH-7).
 */
import { updateQuery } from '../support/auth/requests';
import { ERROR_CASES, errorRequest } from '../support/checks/error-cases';
import { burstInRun } from '../support/run/schedule';
import { clauses, test } from '../support/test';

test.describe('error bodies', () => {
  for (const c of ERROR_CASES) {
    test(
      `${c.place}: ${c.name}`,
      clauses(...new Set(['ERR-3', 'ERR-4', ...(c.sentId ? ['ERR-1' as const] : []), c.clause, 'AUTH-7', 'SPEC-9'] as const)),
      async ({ contract, verdict, target, config }) => {
        const req = errorRequest(c, target, config, burstInRun(test.info().project));
        test.skip('skip' in req, 'skip' in req ? req.skip : '');
        if ('skip' in req) return;
        const op = c.place === 'check-read' ? target.readCheckOp : target.updateOp;
        const own = c.place === 'check-update' ? { query: updateQuery(target), ...c.options } : c.options;
        const options = req.headers ? { ...own, headers: { ...own.headers, ...req.headers } } : own;
        const where = { place: c.place, valueClass: c.id };
        const why = c.mayBeTaken?.(target);
        const ex = await contract.at(where).send(op, req.method, req.path, why ? 'either' : 'invalid', c.clause, options);
        if (why && ex.status >= 200 && ex.status < 300)
          verdict.at(where).note('error-finding', `${c.place}: ${c.name} was taken (${ex.status}); not a failure: ${why}`);
      },
    );
  }
});
