// Mutation testing of the reference service and agent (npm run mutate; scripts/mutate/main.ts): each
// mutant is run against the default contract run, and killed when that run fails.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  // The reference's own code: the service and the agent, which hold no fault of the self-test (those are applied from outside).
  mutate: ['reference/service/**/*.ts', 'reference/agent/**/*.ts'],
  testRunner: 'contract-run',
  // The runner reports which mutants the initial run executed: the others are NoCoverage, not run.
  coverageAnalysis: 'all',
  // Every mutant is "static" to Stryker (the service's coverage has no tests to attribute it to), and
  // every run starts the reference afresh anyway: the warning about static mutants says nothing here.
  warnings: { slow: false },
  plugins: ['@stryker-mutator/*', './scripts/mutate/contract-run.mjs'],
  // Two cores: two contract runs at once, each with its service, agents and workers.
  concurrency: 2,
  // A run takes 12-16 s alone and up to twice that beside another on a busy machine; a mutant that
  // hangs the service is stopped at twice the initial run's time plus 45 s (a Timeout counts as detected).
  timeoutFactor: 2,
  timeoutMS: 45_000,
  // The sandbox is a copy of what a default run reads. node_modules is not linked into it: packages
  // resolve from the project's folder above it, and the bundles of the instrumented reference
  // (support/run/embedded.mjs) and the kept spec checks go to the sandbox's own node_modules/.cache.
  symlinkNodeModules: false,
  ignorePatterns: ['/bench', '/docs', '/examples', '/selftest', '/scratch', '/test-results', '/playwright-report', '/blob-report', '/.env'],
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  thresholds: { high: 80, low: 60, break: null },
};
