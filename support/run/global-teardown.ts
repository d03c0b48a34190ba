/** After the run: the run-scoped files of global setup (spec cache, request ledger) are removed. */
import { rmSync } from 'node:fs';
import { runFiles } from './run-files';

export default async function globalTeardown(): Promise<void> {
  for (const file of Object.values(runFiles())) if (file) rmSync(file, { force: true });
}
