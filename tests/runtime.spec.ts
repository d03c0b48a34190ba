/**
 * RT: GET /v1/runtimes/{id} for every accepted version, checked field by field against the document's
 * rules (zod, one clause per field) and against the target's own spec; unknown and malformed ids 404.
 */
import { askedIn, askHeaders, CLIENT_ASKS, RUNTIME_VERSIONS } from '../support/document/facts';
import { clauses, test } from '../support/test';
import { isJsonContentType, runtimeFields } from '../support/document/rules';
import { checkErrorResponse } from '../support/checks/error-checks';
import { fillPath, type Target } from '../support/spec/target';
import { ACCEPTED_CLASS, generatedIds, UNKNOWN_IDS, type UnknownId } from '../support/runtime/ids';
import { declaredNullable } from '../support/runtime/nullable-fields';
import type { Contract } from '../support/fixtures';
import type { Verdict } from '../support/checks/verdict';
import { declaredCaseSeed } from '../support/run/config';
import { PLACE } from '../support/document/places';

/**
 * The accepted versions in groups of two (three where one is left over), each group's reads sent at
 * once: reads of different ids in flight together must each get their own runtime (RT-2).
 */
const GROUPS = RUNTIME_VERSIONS.reduce<number[][]>((groups, _, i) => {
  const last = groups.at(-1);
  // A pair, or the one left over joining the pair before it (or alone, if it is the only one).
  if (last && (last.length < 2 || i === RUNTIME_VERSIONS.length - 1)) last.push(i);
  else groups.push([i]);
  return groups;
}, []);

test.describe('get one runtime', () => {
  for (const group of GROUPS) {
    const versions = group.map((i) => RUNTIME_VERSIONS[i]);
    test(
      `runtimes ${versions.join(', ')}, read at once`,
      clauses('RT-1', 'RT-2', 'RT-3', 'RT-4', 'RT-5', 'RT-6', 'RT-7', 'RT-8', 'SPEC-9'),
      async ({ contract, target, verdict }) => {
        await Promise.all(group.map((i) => readRuntime({ contract, target, verdict }, i)));
      },
    );
  }

  type Sent = { contract: Contract; target: Target; verdict: Verdict };
  /** One accepted version, read and judged field by field; the versions take turns with what the clients there are ask for (Accept, Accept-Language). */
  const readRuntime = async ({ contract: c, target, verdict: v }: Sent, i: number) => {
    const version = RUNTIME_VERSIONS[i];
    const ask = CLIENT_ASKS[i % CLIENT_ASKS.length];
    const asked = askedIn(ask);
    const at = { place: PLACE.runtime, valueClass: ACCEPTED_CLASS };
    // Each check says which runtime it is about: its subject, set before its field and its words.
    const [contract, verdict] = [c.at(at), v.at({ ...at, subject: `runtime ${version}` })];
    const ex = await contract.send(target.runtimeOp, 'GET', fillPath(target.runtimePath, version), 'valid', 'RT-1', { headers: askHeaders(ask) });
    if (
      !verdict.check({
        clause: 'RT-1',
        ok: ex.status === 200,
        title: `did not answer 200${asked}`,
        received: ex.status,
        allowed: '200 with a Runtime',
        expectedStatus: 200,
        exchange: ex,
      })
    )
      return;
    verdict.check({
      clause: 'RT-1',
      ok: isJsonContentType(ex.contentType),
      field: 'Content-Type',
      title: 'is not JSON',
      received: ex.contentType || 'no content-type',
      allowed: 'application/json',
      exchange: ex,
    });
    const body = ex.json as Record<string, unknown> | undefined;
    if (
      !verdict.check({
        clause: 'RT-1',
        ok: !!body && typeof body === 'object' && !Array.isArray(body),
        title: 'the body is not a JSON object',
        received: ex.text.slice(0, 200),
        allowed: 'a Runtime object',
        exchange: ex,
      })
    )
      return;
    for (const [field, rule] of Object.entries(runtimeFields)) {
      const value = body![field];
      // Null is absent only for an optional field the target's spec declares nullable; elsewhere it is a value to judge.
      if (value === undefined || (value === null && !rule.required && declaredNullable(target.runtimeOp, field))) {
        verdict.check({
          clause: rule.clause,
          ok: !rule.required,
          field,
          title: 'is missing (a required field)',
          received: body,
          allowed: rule.allowed,
          exchange: ex,
        });
        continue;
      }
      const parsed = rule.schema.safeParse(value);
      verdict.check({
        clause: rule.clause,
        ok: parsed.success,
        field,
        title: parsed.success ? '' : parsed.error.issues[0].message,
        received: value,
        allowed: rule.allowed,
        exchange: ex,
      });
    }
    verdict.check({
      clause: 'RT-2',
      ok: body!.name === version,
      field: 'name',
      title: 'is not the requested id',
      received: body!.name,
      allowed: `"${version}"`,
      exchange: ex,
    });
    // A runtime is fixed: read again at once (with another client's Accept), its documented fields are the same (a presenter that changes
    // the row it serves, a cache of another version's answer). Extra fields may vary; they are the target's own. The language asked
    // stays: a description in another language is still the same runtime.
    const again = await contract.send(target.runtimeOp, 'GET', fillPath(target.runtimePath, version), 'valid', 'RT-1', {
      headers: askHeaders({ ...ask, accept: CLIENT_ASKS[(i + 1) % CLIENT_ASKS.length].accept }),
    });
    const second = (again.json ?? {}) as Record<string, unknown>;
    const changed = Object.keys(runtimeFields).filter((f) => JSON.stringify(body![f]) !== JSON.stringify(second[f]));
    verdict.check({
      clause: 'RT-1',
      ok: again.status === 200 && changed.length === 0,
      ...(again.status === 200
        ? { field: changed.join(', '), title: 'changed when read a second time' }
        : { title: 'did not answer 200 when read a second time' }),
      received: again.status === 200 ? Object.fromEntries(changed.map((f) => [f, second[f]])) : again.status,
      allowed: 'the same runtime: a runtime is a fixed set of dependencies and a Node.js version',
      exchange: again,
    });
  };

  const unknownId = async ({ contract, target, verdict }: Sent, { what, id, valueClass }: UnknownId) => {
    const where = { place: PLACE.runtime, valueClass };
    // The id is sent already encoded, exactly as written here; the error body is checked on the way (ERR-*, AUTH-7).
    const ex = await contract.at(where).send(target.runtimeOp, 'GET', target.runtimePath.replace(/\{[^}]+\}/, id), 'invalid', 'RT-9');
    const v = verdict.at(where);
    // RT-9 judges the status: a 404, where any other 4xx is refused but not "not found" (a non-4xx failed RT-9 in the contract's send
    // already: one failure each). The 404's body is ERR-1's, once per place (judged here too where the spec lacks the operation).
    checkErrorResponse({ verdict: v, exchange: ex });
    if (ex.status >= 400 && ex.status < 500)
      v.check({
        clause: 'RT-9',
        ok: ex.status === 404,
        title: `unknown runtime id (${what}) did not answer 404`,
        received: ex.status,
        allowed: '404 (its body: ERR-1)',
        expectedStatus: 404,
        exchange: ex,
      });
  };
  const details = clauses('RT-9', 'ERR-1', 'ERR-3', 'ERR-4', 'AUTH-7', 'SPEC-9');

  // Each failure names its id and class: the listed kinds sent side by side, as the generated ones below.
  test('unknown ids of every listed kind (a word, month 13, an encoded slash…) are not found', details, async ({ contract, target, verdict }) => {
    await Promise.all(UNKNOWN_IDS.map((u) => unknownId({ contract, target, verdict }, u)));
  });

  // The near misses of the accepted versions and the seeded ids (CASE_SEED), sent side by side: each
  // failure names its id and class.
  test('unknown ids generated from the accepted versions (near misses, seeded)', details, async ({ contract, target, verdict }) => {
    await Promise.all(generatedIds(declaredCaseSeed()).map((u) => unknownId({ contract, target, verdict }, u)));
  });
});
