/**
 * The self-test's plugin for the reference service: REFERENCE_PLUGINS=selftest/faults/outside/plugin.ts
 * applies the outside faults MOCK_FAULT names (index.ts), read when the service registers it. The list is
 * checked as the service checks it (selftest/faults/catalogue/faults.ts: an unknown name or a malformed
 * row is an error); its other items are the agent's.
 */
import type { OutsidePlugin } from '../../../reference/service/seams';
import { parseKind, type FaultKind } from '../catalogue/fault-kinds';
import { checkFaultList, faultItems } from '../catalogue/faults';
import { OUTSIDE_FAULTS } from './index';
import type { KindFault, OutsideFault, Seam } from './seams';

/** The path to give REFERENCE_PLUGINS, from the project's root. */
export const OUTSIDE_FAULTS_PLUGIN = 'selftest/faults/outside/plugin.ts';

const isKind = (f: OutsideFault): f is KindFault => 'kind' in f;

/** The plugin that applies the outside faults of these MOCK_FAULT items (a list, or MOCK_FAULT's text). */
export function outsideFaults(mockFault: string | Iterable<string> | undefined): OutsidePlugin {
  const items = typeof mockFault === 'string' || mockFault === undefined ? faultItems(mockFault) : [...mockFault];
  checkFaultList(items);
  const rows: FaultKind[] = items.filter((i) => i.includes(':')).map(parseKind);
  return async (app, seams) => {
    for (const f of OUTSIDE_FAULTS) {
      if (!isKind(f)) {
        if (items.includes(f.name)) f.apply(app, seams);
        continue;
      }
      const mine = rows.filter((r) => r.kind === f.kind);
      // Rows of f's kind: the type of f.apply's argument, which the union cannot name here.
      if (mine.length) (f.apply as (rows: FaultKind[]) => Seam)(mine)(app, seams);
    }
  };
}

const plugin: OutsidePlugin = async (app, seams) => {
  await outsideFaults(process.env.MOCK_FAULT)(app, seams);
  if (process.env.MOCK_FAULT?.trim()) process.stderr.write(`reference service: faults injected: ${process.env.MOCK_FAULT.trim()}\n`);
};
export default plugin;
