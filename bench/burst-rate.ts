/**
 * The suite's burst against autocannon on the same endpoint with the same concurrency, in turns, with a
 * limit nobody reaches: the burst must not be what makes the suite slow (target ratio >= 0.7).
 */
import autocannon from 'autocannon';
import { burst, burstTarget } from '../support/rate-limit/burst';
import { EMBEDDED } from '../support/run/config';
import { DEFAULT_ACCOUNT_HEADER, RUNTIME_VERSIONS } from '../support/document/facts';

export const TARGET_RATIO = 0.7;

// Both clients run for the same time rather than the same count: autocannon only notices that an
// `amount` is done at its next one-second sample, which would make its rate look lower than it is.
export async function measureRates(baseUrl: string, seconds: number, concurrency: number, rounds: number) {
  const path = `/v1/runtimes/${RUNTIME_VERSIONS[0]}`;
  const credentials = { apiKey: EMBEDDED.apiKey, accountId: EMBEDDED.accountId, accountHeader: DEFAULT_ACCOUNT_HEADER };
  // Not in the ledger: the bench is no contract run.
  const target = { ...burstTarget(baseUrl, path, credentials), ledger: false };
  const suiteRate = async (s = seconds) => {
    const run = await burst(target, { concurrency, maxRequests: Number.MAX_SAFE_INTEGER, deadlineMs: s * 1000 });
    const bad = run.replies.filter((r) => r.status !== 200).length;
    if (bad) throw new Error(`the burst got ${bad} answers other than 200: is the limit high enough?`);
    return run.replies.length / (run.durationMs / 1000);
  };
  const cannonRate = async (s = seconds) => {
    const r = await autocannon({ url: `${baseUrl}${path}`, connections: concurrency, duration: s, headers: target.headers });
    if (r.non2xx || r.errors) throw new Error(`autocannon got ${r.non2xx} non-2xx answers and ${r.errors} errors`);
    return r.requests.total / r.duration;
  };
  // Warm both clients and the server's JIT before anything is measured.
  await suiteRate(1);
  await cannonRate(1);
  const suite: number[] = [];
  const cannon: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate who goes first, so drift in the machine's load favours neither.
    if (i % 2 === 0) {
      suite.push(await suiteRate());
      cannon.push(await cannonRate());
    } else {
      cannon.push(await cannonRate());
      suite.push(await suiteRate());
    }
  }
  return { suite, cannon };
}
