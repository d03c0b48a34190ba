// Prints the fault catalogue: every named fault and every fault kind with its grammar, one line each
// (`npx tsx selftest/faults/list.ts`). MOCK_FAULT takes these, applied by selftest/faults/outside/plugin.ts.
import { listFaults } from '../../reference/faults';

process.stdout.write(`${listFaults()}\n`);
