/** After the run: the agent's sessions are over (their agents killed if they still run) and the run-scoped files are removed. */
import { stopAgentSessions } from '../agent/background-session';
import { removeRunFiles } from './run-files';

export default async function globalTeardown(): Promise<void> {
  await stopAgentSessions();
  removeRunFiles();
}
