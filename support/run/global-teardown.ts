/** After the run: the agent's session is over (its agent killed if it still runs) and the run-scoped files are removed. */
import { stopAgentSessions } from '../agent/background-session';
import { removeRunFiles } from './run-files';

export default async function globalTeardown(): Promise<void> {
  await stopAgentSessions();
  removeRunFiles();
}
