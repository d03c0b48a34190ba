/**
 * Every fault applied from outside the reference service (seams.ts), and the plugin that applies those
 * a MOCK_FAULT list names. The list is checked as the service checks it (selftest/faults/catalogue/faults.ts: an unknown
 * name or a malformed row is an error); its other items are the service's own, or the agent's.
 */
import type { OutsidePlugin } from '../../../reference/service/seams';
import { parseKind, type FaultKind } from '../catalogue/fault-kinds';
import { faultItems, parseFaultList } from '../catalogue/faults';
import type { KindFault, OutsideFault, Seam } from './seams';
import { AUTH_FAULTS } from './auth';
import { CHECK_UPDATE_FAULTS } from './check-update';
import { RATE_LIMIT_FAULTS } from './rate-limit';
import { SPEC_FAULTS } from './spec';
import { ERRORS_FAULTS } from './errors';
import { RUNTIME_FAULTS } from './runtimes';
import { REQUEST_FAULTS } from './request';
import { CHECK_FAULTS } from './checks';

/** In the order they are applied (a record's hooks run in the order they are added). */
export const OUTSIDE_FAULTS: readonly OutsideFault[] = [
  ...SPEC_FAULTS,
  ...ERRORS_FAULTS,
  ...RATE_LIMIT_FAULTS,
  ...AUTH_FAULTS,
  ...CHECK_UPDATE_FAULTS,
  ...CHECK_FAULTS,
  ...RUNTIME_FAULTS,
  ...REQUEST_FAULTS,
];

const isKind = (f: OutsideFault): f is KindFault => 'kind' in f;

/** The plugin that applies the outside faults of these MOCK_FAULT items (a list, or MOCK_FAULT's text). */
export function outsideFaults(mockFault: string | Iterable<string> | undefined): OutsidePlugin {
  const items = typeof mockFault === 'string' || mockFault === undefined ? faultItems(mockFault) : [...mockFault];
  parseFaultList(items);
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
