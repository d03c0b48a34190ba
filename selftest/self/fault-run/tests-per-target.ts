/**
 * The tests of one target of a run of many faulty targets (plan.ts), in a describe of its own: the
 * target's contract test files evaluated again inside it, which gives their tests the target's
 * configuration. Each target has a file of its own that calls this (run-targets.ts writes them), so a
 * worker evaluates only the test files of the targets it runs; one worker runs many targets, each
 * target's tests as one group, in order. The plan is read again in each worker, after global setup wrote
 * the targets' ports into it.
 */
import { join } from 'node:path';
import { readConfig, type Config } from '../../../support/run/config';
import { setRunDir } from '../../../support/run/run-files';
import { test } from '../../../support/test';
import { readPlan, suiteEnv, type PlannedTarget } from './plan';

const ROOT = join(__dirname, '../../..');
const plan = readPlan();

/** Node evaluates a module once: the file is taken out of its cache, so that its tests register here too. */
function loadAgain(file: string): void {
  const path = require.resolve(join(ROOT, file));
  delete require.cache[path];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated for its calls of test(), inside the describe being declared
  require(path);
}

const configs = new Map<string, Config>();

/** The target's configuration, once per worker: read from the environment a run against it alone would have. */
function configOf(t: PlannedTarget): Config {
  let config = configs.get(t.name);
  if (!config) {
    const env = { ...process.env, ...suiteEnv(t, plan) };
    setRunDir(t.dir, env);
    configs.set(t.name, (config = readConfig(env)));
  }
  return config;
}

export function declareTarget(name: string): void {
  const t = plan.targets.find((x) => x.name === name);
  if (!t) throw new Error(`no target ${name} in the plan`);
  test.describe(t.name, () => {
    test.describe.configure({ mode: 'default' });
    // The suite's `config` option, as a project or describe gives it (support/fixtures.ts): read in the worker that loads this file.
    test.use({ config: configOf(t) });
    for (const file of [...t.files].sort()) loadAgain(file);
  });
}
