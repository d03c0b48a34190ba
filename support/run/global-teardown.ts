/** After the run: the run-scoped files of global setup (spec cache, request ledger) are removed. */
import { rmSync } from 'node:fs';
import { SPEC_CACHE_VARIABLE } from '../spec/spec-cache';
import { LEDGER_VARIABLE } from '../http/request-ledger';

export default async function globalTeardown(): Promise<void> {
  for (const v of [SPEC_CACHE_VARIABLE, LEDGER_VARIABLE]) {
    const file = process.env[v];
    if (file) rmSync(file, { force: true });
  }
}
