/**
 * Which tests a batch runs: for each fault, the tests of its files that tried its catch (clause, and
 * place and value class where named) in the run without faults (their `tried` data, tried.json). A fault
 * can only be caught by a check that is made, and a check that is made is tried; running the other
 * tests of the files would cost time and could catch nothing for it. A fault none of whose tests tried
 * its catch gets every test of its files (and a fault a batch misses is run again alone, with all of
 * its files, before it counts as a survivor). A test that tried nothing there (skipped: the recovery at
 * the baseline's window) may try anything under a fault's own settings, so it runs for every fault of its file.
 */
import type { TestTried } from '../../reporters/clause-matrix';
import type { Tried } from '../../support/checks/failure';
import type { Catch, FaultCase } from './fault-cases';

const tries = (c: Catch, t: Tried) =>
  t.clause === c.clause && (c.place === undefined || t.place === c.place) && (c.valueClass === undefined || t.valueClass === c.valueClass);

/** The tests that can catch `c`, by their baseline names (`[contract] › <file> › <titles>`), in the order of the baseline run. */
export function testsFor(c: FaultCase, baseline: TestTried[]): string[] {
  const own = baseline.filter((t) => c.files.includes(t.file));
  const picked = own.filter((t) => c.catches.some((k) => t.tried.some((x) => tries(k, x))));
  return (picked.length ? [...picked, ...own.filter((t) => !t.tried.length)] : own).map((t) => t.id);
}

export function testsForAll(cases: FaultCase[], baseline: TestTried[]): string[] {
  const wanted = new Set(cases.flatMap((c) => testsFor(c, baseline)));
  return baseline.map((t) => t.id).filter((id) => wanted.has(id));
}
