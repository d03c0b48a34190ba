/** After the run: the run-scoped files are removed. */
import { removeRunFiles } from './run-files';

export default function globalTeardown(): void {
  removeRunFiles();
}
