// Loaded into every node process of the initial contract run (NODE_OPTIONS --require, contract-run.mjs):
// a process running the instrumented reference writes the mutants it executed to MUTATION_COVERAGE_DIR,
// now and then and at its exit (an agent the suite kills never sees its exit). Other processes write nothing.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { setInterval } = require('node:timers');

const dir = process.env.MUTATION_COVERAGE_DIR;
if (dir) {
  const flush = () => {
    const coverage = globalThis.__stryker__ && globalThis.__stryker__.mutantCoverage;
    if (coverage) writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(coverage));
  };
  setInterval(flush, 250).unref();
  process.on('exit', flush);
}
