/**
 * The self-test's plugin for the reference agent: AGENT_PLUGINS=selftest/faults/outside/agent-plugin.ts
 * applies the agent faults MOCK_FAULT names (agent.ts), read when the agent loads it. The service's items
 * of the list are left to the service's plugin (plugin.ts); an unknown name stops the agent (exit 2).
 */
import type { AgentPlugin } from '../../../reference/agent/seams';
import { parseKind, type FaultKind } from '../catalogue/fault-kinds';
import { checkFaultList, faultItems } from '../catalogue/faults';
import { AGENT_FAULTS, type AgentFault, type AgentKindFault, type AgentSeam } from './agent';

/** The path to give AGENT_PLUGINS, from the project's root. */
export const AGENT_FAULTS_PLUGIN = 'selftest/faults/outside/agent-plugin.ts';

const isKind = (f: AgentFault): f is AgentKindFault => 'kind' in f;

/**
 * The change of the agent faults these MOCK_FAULT items name (a list, or MOCK_FAULT's text). The list is
 * checked as the service's plugin checks it (an unknown name or a malformed row is an error); its other
 * items are the service's.
 */
export function agentFaults(mockFault: string | Iterable<string> | undefined): AgentSeam {
  const items = typeof mockFault === 'string' || mockFault === undefined ? faultItems(mockFault) : [...mockFault];
  checkFaultList(items);
  const rows: FaultKind[] = items.filter((i) => i.includes(':')).map(parseKind);
  return (seams) => {
    for (const f of AGENT_FAULTS) {
      if (!isKind(f)) {
        if (items.includes(f.name)) f.apply(seams);
        continue;
      }
      const mine = rows.filter((r) => r.kind === f.kind);
      // Rows of f's kind: the type of f.apply's argument, which the union cannot name here.
      if (mine.length) (f.apply as (rows: FaultKind[]) => AgentSeam)(mine)(seams);
    }
  };
}

const plugin: AgentPlugin = (seams) => agentFaults(process.env.MOCK_FAULT)(seams);
export default plugin;
