// Prints the fault catalogue: every named fault and every fault kind with its grammar, one line each
// (`npx tsx selftest/faults/list.ts`). MOCK_FAULT takes these, applied by selftest/faults/outside/plugin.ts
// (the service's, REFERENCE_PLUGINS) and selftest/faults/outside/agent-plugin.ts (the agent's, AGENT_PLUGINS).
import { listFaults } from './catalogue/faults';

process.stdout.write(`${listFaults()}\n`);
