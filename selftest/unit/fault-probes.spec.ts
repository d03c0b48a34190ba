// One generated probe per service fault that no required catch proves: the same generic battery of requests (probe-battery.ts)
// sent to a clean reference service and to one with the fault, under a few settings; some answer must differ. A fault the self-test
// must catch on its clause (the hand-written list, every generated row) is proven to break the reference by that catch: the suite
// passes the clean reference and fails the faulty one. What is left is probed here: the lists the self-test measures rather than
// requires (their survivors would otherwise be dead faults or real misses, untold apart), the known survivors, and the catalogue's
// faults no list expects (settings a correct service may choose). The agent's faults are a process's life, not the service's answers.
import { expect, test } from '@playwright/test';
import { FAULTS } from '../faults/catalogue/faults';
import { LISTED_FAULTS } from '../faults';
import { KNOWN_SURVIVORS, MEASURED_ONLY } from '../self/known-survivors';
import { reachOf } from '../self/fault-cases';
import { runBattery, settingsFor, UPDATE_PART, type Setting } from './probe-battery';

/** An agent fault: a named one of the agent, or a row of an agent kind. */
const isAgentFault = (fault: string) => /^(ind\d*-)?agent-/.test(fault);

interface Probed {
  fault: string;
  env?: Record<string, string>;
}

/** Faults of one kind (the name's first word: auth-skip, errbody, accept, rt…) mostly show in the same part. */
const kindOf = (fault: string) => (fault.includes(':') ? fault.split(':')[0] : fault.split('-')[0]);

/** The service faults no required catch proves, each with the environment its expectation gives. */
function serviceFaults(): Probed[] {
  const known = new Set(KNOWN_SURVIVORS.map((k) => k.fault));
  const listed: Probed[] = LISTED_FAULTS.filter((f) => MEASURED_ONLY.includes(f.list) || known.has(f.fault)).map(({ fault, env }) => ({ fault, env }));
  const named = new Set(LISTED_FAULTS.map((f) => f.fault));
  // The catalogue's named faults no expectation lists (e.g. rl-per-ip, a setting the suite must pass): probed without an environment.
  const all: Probed[] = [
    ...listed,
    ...Object.keys(FAULTS)
      .filter((f) => !named.has(f))
      .map((fault): Probed => ({ fault })),
  ];
  const seen = new Set<string>();
  return all.filter((f) => {
    const key = JSON.stringify([f.fault, f.env ?? null]);
    if (isAgentFault(f.fault) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Faults run at the same time: the battery's waits overlap, the services do not share anything. */
const BATCH = 16;
/** Tests the faults are dealt to, so that the unit run's workers share them. */
const SHARDS = 4;

/** The faults whose reach is the check (the self-test's reach table) meet the update's parts first. */
const firstGuess = (fault: string): number => (reachOf(fault).some((r) => /^check-(update|read)/.test(r)) ? UPDATE_PART : 0);

for (let shard = 0; shard < SHARDS; shard++) {
  test(`every service fault changes some answer of the generic battery, under its environment (${shard + 1} of ${SHARDS})`, async () => {
    test.setTimeout(300_000);
    const all = serviceFaults();
    expect(all.length).toBeGreaterThan(100);
    const faults = all.filter((_, i) => i % SHARDS === shard);
    const cleanAnswers = new Map<string, Promise<string[]>>();
    const clean = (s: Setting, first: number) => {
      const key = `${s.name} ${first}`;
      if (!cleanAnswers.has(key))
        cleanAnswers.set(
          key,
          runBattery([], s, undefined, first).then((r) => r.answers),
        );
      return cleanAnswers.get(key)!;
    };
    // The part that last showed a fault of each kind: a run stops at its first difference, so the nearer it is, the cheaper.
    const shownIn = new Map<string, number>();
    const proven = async ({ fault, env }: Probed): Promise<boolean> => {
      // The learned part saves time only: the guess and the default order are always tried, so which faults are proven does not hang on the order probes end in.
      for (const first of new Set([shownIn.get(kindOf(fault)) ?? firstGuess(fault), firstGuess(fault), 0]))
        for (const setting of settingsFor(env)) {
          const r = await runBattery([fault], setting, await clean(setting, first), first);
          if (r.differs) {
            if (r.part !== undefined) shownIn.set(kindOf(fault), r.part);
            return true;
          }
        }
      return false;
    };
    const unproven: string[] = [];
    for (let i = 0; i < faults.length; i += BATCH) {
      const batch = faults.slice(i, i + BATCH);
      const shown = await Promise.all(batch.map(proven));
      batch.forEach((f, j) => {
        if (!shown[j]) unproven.push(`${f.fault}${f.env ? ` (${JSON.stringify(f.env)})` : ''}: no probe differed`);
      });
    }
    expect(unproven).toEqual([]);
  });
}

test('the battery is deterministic: two clean services answer it alike, under every setting', async () => {
  for (const setting of [...settingsFor(), ...settingsFor({ RATE_LIMIT_ALGORITHM: 'sliding' })]) {
    const first = await runBattery([], setting);
    expect((await runBattery([], setting, first.answers)).differs, setting.name).toBe(false);
  }
});
