/** After the run: the agent's session is over (its agent killed if it still runs) and the run-scoped files are removed. */
import { rmSync } from 'node:fs';
import { stopAgentSession } from '../agent/background-session';
import { runFiles } from './run-files';

export default async function globalTeardown(): Promise<void> {
  await stopAgentSession();
  for (const file of Object.values(runFiles())) if (file) rmSync(file, { force: true });
}
