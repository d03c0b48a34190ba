/**
 * Whether a service fault changes some answer of the generic battery (selftest/unit/probe-battery.ts), under its environment.
 * A fault the suite catches needs no probe: its catch shows it changes an answer, since the suite passes the clean reference. A
 * survivor is probed, which tells a miss of the suite (some answer differs) from a fault that does not break the reference at all.
 */
import { reachOf } from './fault-cases';
import { AGENT_FAULTS } from '../faults/outside/agent';
import { runBattery, settingsFor, UPDATE_PART, type Setting } from '../unit/probe-battery';

/** The agent's records' names and kinds (selftest/faults/outside/agent.ts). */
const AGENT_RECORDS = new Set(AGENT_FAULTS.map((f) => f.kind ?? f.name));
/** An agent fault: a named one of the agent, or a row of an agent kind. Its fault is a process's life, which the battery does not see. */
export const isAgentFault = (fault: string) => AGENT_RECORDS.has(fault.split(':')[0]);

/** Faults of one kind (the name's first word: auth-skip, errbody, accept, rt…) mostly show in the same part. */
const kindOf = (fault: string) => (fault.includes(':') ? fault.split(':')[0] : fault.split('-')[0]);

/** The faults whose reach is the check (the self-test's reach table) meet the update's parts first. */
const firstGuess = (fault: string): number => (reachOf(fault).some((r) => /^check-(update|read)/.test(r)) ? UPDATE_PART : 0);

export class Prober {
  /** The clean service's answers, per setting and first part. */
  private readonly clean = new Map<string, Promise<string[]>>();
  /** The part that last showed a fault of each kind: a run stops at its first difference, so the nearer it is, the cheaper. */
  private readonly shownIn = new Map<string, number>();

  private cleanAnswers(s: Setting, first: number): Promise<string[]> {
    const key = `${s.name} ${first}`;
    if (!this.clean.has(key))
      this.clean.set(
        key,
        runBattery([], s, undefined, first).then((r) => r.answers),
      );
    return this.clean.get(key)!;
  }

  async changesAnswers(fault: string, env?: Record<string, string>): Promise<boolean> {
    // The learned part saves time only: the guess and the default order are always tried, so what is proven does not hang on the order probes end in.
    for (const first of new Set([this.shownIn.get(kindOf(fault)) ?? firstGuess(fault), firstGuess(fault), 0]))
      for (const setting of settingsFor(env)) {
        const r = await runBattery([fault], setting, await this.cleanAnswers(setting, first), first);
        if (r.differs) {
          if (r.part !== undefined) this.shownIn.set(kindOf(fault), r.part);
          return true;
        }
      }
    return false;
  }
}
