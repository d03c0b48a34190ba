/**
 * The self-test's plugin for the reference agent: AGENT_PLUGINS=selftest/faults/outside/agent-plugin.ts
 * applies the agent faults MOCK_FAULT names (agent.ts), read when the agent loads it. The service's items
 * of the list are left to the service's plugin (plugin.ts); an unknown name stops the agent (exit 2).
 */
import type { AgentPlugin } from '../../../reference/agent/seams';
import { agentFaults } from './agent';

/** The path to give AGENT_PLUGINS, from the project's root. */
export const AGENT_FAULTS_PLUGIN = 'selftest/faults/outside/agent-plugin.ts';

const plugin: AgentPlugin = (seams) => agentFaults(process.env.MOCK_FAULT)(seams);
export default plugin;
