/**
 * The self-test's plugin for the reference service: REFERENCE_PLUGINS=selftest/faults/outside/plugin.ts
 * applies the outside faults MOCK_FAULT names (index.ts), read when the service registers it.
 */
import type { OutsidePlugin } from '../../../reference/service/seams';
import { outsideFaults } from './index';

/** The path to give REFERENCE_PLUGINS, from the project's root. */
export const OUTSIDE_FAULTS_PLUGIN = 'selftest/faults/outside/plugin.ts';

const plugin: OutsidePlugin = async (app, seams) => {
  await outsideFaults(process.env.MOCK_FAULT)(app, seams);
  if (process.env.MOCK_FAULT?.trim()) process.stderr.write(`reference service: faults injected: ${process.env.MOCK_FAULT.trim()}\n`);
};
export default plugin;
