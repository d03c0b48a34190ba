/**
 * Which key the lens's method, path and header tests send with: one the rest of the run does not spend.
 * The main key's window is the other families' (they use most of the suite's share of it), and the burst
 * wants a window of its own; so the lens uses SECOND_API_KEY when the burst does not spend it in this
 * run (BURST_API_KEY set, or the burst not run), and is skipped, saying so, when it does. Another
 * account's key reads the platform's resources (runtimes) as well as the main one; the main account's
 * check is not its own, so the check read is no place of the lens then, but for the methods no route declares.
 */
import { test, type TestInfo } from '@playwright/test';
import { contractAt, type ContractFixtures } from '../fixtures';
import { ApiClient } from '../http/client';
import { PLACE } from '../document/places';
import { foreignCredentials } from '../rate-limit/keys';
import { burstInRun } from '../run/schedule';
import { lensPlaces } from './cases';

export function lensSetUp(fx: Pick<ContractFixtures, 'api' | 'verdict' | 'spec' | 'validator' | 'target' | 'config'>, info: TestInfo) {
  const { config, target } = fx;
  const other = foreignCredentials(config, burstInRun(info.project));
  if ('skip' in other)
    test.skip(
      true,
      `the request lens sends about 80 requests with a key nothing else in the run spends (the main key's window is the other families'): ${other.skip}`,
    );
  const credentials = { ...(other as Exclude<typeof other, { skip: string }>).credentials, accountHeader: target.accountHeader };
  const every = lensPlaces(target, config);
  const places = every.filter((p) => p.place !== PLACE.checkRead);
  test.skip(places.length === 0, "the target's spec declares none of the routes the suite knows");
  const client = new ApiClient(config.baseUrl, credentials, info, config.rateLimit);
  // Its exchanges are the test's: attached with the test's own requests, and counted with them.
  (client as { log: unknown[] }).log = fx.api.log;
  // The methods no route declares are refused on the check's path whoever asks (an id nobody created): it is a place of theirs.
  return { places, methodPlaces: every, client, credentials, contract: contractAt(client, fx.spec, fx.validator, target, fx.verdict) };
}
