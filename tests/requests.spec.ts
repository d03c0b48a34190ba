/**
 * The request lens: the whole request is the input. Its method, its path and each header's whole value
 * are dimensions with operators of their own (support/request-lens/operators.ts), chosen pairwise and by
 * the run's seed (cases.ts), each answer judged by the oracle (judge.ts). The update's body is the fourth
 * dimension, sent in the check update's chain (it changes the check: support/request-lens/body-cells.ts).
 */
import { headerCases, methodCases, pathCases, type LensCase } from '../support/request-lens/cases';
import { lensSetUp } from '../support/request-lens/key';
import { sendCase } from '../support/request-lens/judge';
import { sameValue } from '../support/check-update/state';
import { PLACE } from '../support/document/places';
import { clauses, test } from '../support/test';

test.describe('the whole request', () => {
  test(
    'methods no route declares are never taken: a write is refused, with credentials or without, and changes nothing',
    clauses('SPEC-9', 'AUTH-1', 'RT-1', 'ERR-3', 'ERR-4', 'AUTH-7'),
    async ({ api, verdict, spec, validator, target, config }) => {
      const { places, methodPlaces, client, contract } = lensSetUp({ api, verdict, spec, validator, target, config }, test.info());
      const runtime = places.find((p) => p.place === PLACE.runtime);
      const read = async (valueClass: string) =>
        runtime && contract.at({ place: runtime.place, valueClass }).send(runtime.op, 'GET', `${runtime.collection}/${runtime.id}`, 'valid', 'RT-1');
      const before = await read('request:method:read-before');
      const cases = methodCases(spec, methodPlaces, config.caseSeed);
      await Promise.all(cases.map((c) => sendCase({ api: client, verdict, spec, validator }, c)));
      // An undeclared write answered with a refusal may still have done something: the runtime reads as before.
      const after = await read('request:method:read-after');
      if (before?.status === 200 && after?.status === 200)
        verdict.at({ place: PLACE.runtime, valueClass: 'request:method:read-after' }).check({
          clause: 'SPEC-9',
          ok: sameValue(before.json, after.json),
          title: 'the runtime changed after methods its spec does not declare were sent to it',
          received: after.json,
          allowed: 'the runtime as read before them',
          exchange: after,
        });
    },
  );

  test(
    'other spellings of a path are the same resource or refused, and a path no route handles gets the JSON error body',
    clauses('RT-9', 'RT-1', 'RT-2', 'SPEC-9', 'ERR-1', 'ERR-3', 'ERR-4', 'AUTH-7'),
    async ({ api, verdict, spec, validator, target, config }) => {
      const { places, client } = lensSetUp({ api, verdict, spec, validator, target, config }, test.info());
      await sendAll(pathCases(places, config.caseSeed), { api: client, verdict, spec, validator });
    },
  );

  test(
    "each header's whole value: Authorization, the account header and Accept spelled otherwise, repeated, long (pairwise)",
    clauses('AUTH-3', 'AUTH-6', 'RT-1', 'RT-2', 'SPEC-9', 'ERR-3', 'ERR-4', 'AUTH-7'),
    async ({ api, verdict, spec, validator, target, config }) => {
      const { places, client, credentials } = lensSetUp({ api, verdict, spec, validator, target, config }, test.info());
      await sendAll(headerCases(places, credentials, config.caseSeed), { api: client, verdict, spec, validator });
    },
  );
});

/** A few at a time: a remote target sees no flood, a local one answers them at once. */
async function sendAll(cases: LensCase[], fx: Parameters<typeof sendCase>[0]): Promise<void> {
  const AT_ONCE = 8;
  for (let i = 0; i < cases.length; i += AT_ONCE) await Promise.all(cases.slice(i, i + AT_ONCE).map((c) => sendCase(fx, c)));
}
