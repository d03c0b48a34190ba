// What a client sees of the runtimes: the data, bent by the RT-* data faults.
import type { Faults } from '../../faults';
import { MISSING } from '../../fault-kinds';
import { RUNTIMES, type Runtime } from './data';

/** One runtime as served; the result is a fresh object, the data stays untouched. */
export function present(rt: Runtime, faults: Faults): Record<string, unknown> {
  const out: Record<string, unknown> = { ...rt, dependencies: { ...rt.dependencies } };
  if (faults.has('rt-name-mismatch') && rt.name === '2024.09') out.name = '2024.9';
  if (faults.has('rt-node-no-v')) out.nodeJsVersion = rt.nodeJsVersion.replace(/^v/, '');
  if (faults.has('rt-multistep-string')) out.multiStepSupport = String(rt.multiStepSupport);
  if (faults.has('rt-stage-lowercase') && rt.stage) out.stage = rt.stage.toLowerCase();
  if (rt.runtimeEndOfLife) {
    const [m, d, y] = rt.runtimeEndOfLife.split('/');
    if (faults.has('rt-eol-iso')) out.runtimeEndOfLife = `${y}-${m}-${d}`;
    if (faults.has('rt-eol-invalid-date')) out.runtimeEndOfLife = '02/30/2025';
  }
  // ind-rt-eol-day-first: one date typed day first by hand.
  if (faults.has('ind-rt-eol-day-first') && rt.name === '2023.09') out.runtimeEndOfLife = '31/12/2026';
  // ind-rt-removed-no-deps: the packages of REMOVED runtimes were purged from the registry table.
  if (faults.has('ind-rt-removed-no-deps') && rt.stage === 'REMOVED') out.dependencies = {};
  // ind6-rt-eol-leap: the last day of February typed for a leap year.
  if (faults.has('ind6-rt-eol-leap') && rt.name === '2022.10') out.runtimeEndOfLife = '02/29/2026';
  // ind6-rt-description-null: the newest runtime's release notes not written yet, a null column.
  if (faults.has('ind6-rt-description-null') && rt.name === '2026.04') out.description = null;
  // ind7-rt-multistep-omitempty: the serializer leaves out false values, as Go's omitempty does.
  if (faults.has('ind7-rt-multistep-omitempty') && out.multiStepSupport === false) delete out.multiStepSupport;
  // ind7-rt-eol-locale-unpadded: the date written by toLocaleDateString('en-US'), which does not pad month and day.
  if (faults.has('ind7-rt-eol-locale-unpadded') && typeof out.runtimeEndOfLife === 'string') {
    const [m, d, y] = out.runtimeEndOfLife.split('/');
    out.runtimeEndOfLife = `${Number(m)}/${Number(d)}/${y}`;
  }
  // ind8-rt-stage-past-eol-computed: the stage derived at request time, a runtime past its end of life getting a stage of its own.
  if (faults.has('ind8-rt-stage-past-eol-computed') && rt.runtimeEndOfLife) {
    const [m, d, y] = rt.runtimeEndOfLife.split('/').map(Number);
    if (Date.UTC(y, m - 1, d + 1) <= Date.now()) out.stage = 'END_OF_LIFE';
  }
  // ind8-rt-deps-npm-ls-shape: the newest runtime's packages listed by the new pipeline, which keeps `npm ls --json`'s shape.
  if (faults.has('ind8-rt-deps-npm-ls-shape') && rt.name === '2026.04')
    out.dependencies = Object.fromEntries(Object.entries(rt.dependencies).map(([name, version]) => [name, { version }]));
  // ind9-rt-eol-zero-based-month: the date parsed into a Date and written back with getUTCMonth(), which counts from 0.
  if (faults.has('ind9-rt-eol-zero-based-month') && rt.runtimeEndOfLife) {
    const [m, d, y] = rt.runtimeEndOfLife.split('/').map(Number);
    const date = new Date(Date.UTC(y, m - 1, d));
    const two = (n: number) => String(n).padStart(2, '0');
    out.runtimeEndOfLife = `${two(date.getUTCMonth())}/${two(date.getUTCDate())}/${date.getUTCFullYear()}`;
  }
  // ind9-rt-deps-double-encoded: the runtimes with an end of life come from the legacy table, whose JSON column the driver returns as text.
  if (faults.has('ind9-rt-deps-double-encoded') && rt.runtimeEndOfLife) out.dependencies = JSON.stringify(out.dependencies);
  if (faults.has('rt-deps-empty')) out.dependencies = {};
  else if (faults.has('rt-deps-number')) (out.dependencies as Record<string, unknown>).lodash = 4.17;
  if (faults.has('rt-description-number')) out.description = 2024;
  // rt-field: one field of every runtime bent, or left out.
  for (const { field, value } of faults.runtimeFieldBends()) {
    if (value === MISSING) delete out[field];
    else out[field] = value;
  }
  return out;
}

export const visibleRuntimes = (faults: Faults): Runtime[] => RUNTIMES.filter((r) => !(faults.has('rt-missing-version') && r.name === '2022.10'));

/** ind9-rt-lookup-plain-object: the runtimes by name in an object literal, which inherits Object.prototype's members. */
const BY_NAME: Record<string, Runtime> = {};
for (const r of RUNTIMES) BY_NAME[r.name] = r;

/** Exact match only; rt-prefix-match makes "2024.0" find 2024.02. */
export function findRuntime(id: string, faults: Faults): Runtime | undefined {
  // ind9-rt-lookup-plain-object: BY_NAME[id] without an own-property check: "constructor", "toString", "__proto__" find something.
  if (faults.has('ind9-rt-lookup-plain-object')) return BY_NAME[id];
  const list = visibleRuntimes(faults);
  const exact = list.find((r) => r.name === id);
  // ind6-rt-id-numeric-parse: the id read as a year and a month number, so "2024.9" is 2024.09.
  const numeric = faults.has('ind6-rt-id-numeric-parse') ? /^(\d{4})\.(\d{1,2})$/.exec(id) : null;
  if (!exact && numeric) return list.find((r) => r.name === `${numeric[1]}.${numeric[2].padStart(2, '0')}`);
  if (exact || !faults.has('rt-prefix-match') || !id) return exact;
  // The lowest matching name: "2024.0" finds 2024.02, not 2024.09.
  return list.filter((r) => r.name.startsWith(id)).sort((a, b) => a.name.localeCompare(b.name))[0];
}
