/**
 * What the command line selects, read once by the runner (playwright.config.ts): whether it only lists, whether it runs part of
 * the suite (the matrix marks what it did not try), whether it chose its own reporters. Playwright hands none of this to a
 * reporter (FullConfig.argv holds only the arguments after `--`), nor --shuffle to a configuration, so it is read from the runner's
 * command line, once for every reader (schedule.ts decides the burst's order and whether it is in the run from it).
 */

/** Options of `playwright test` whose value may follow as the next argument. */
const TAKES_VALUE = new Set([
  ...['--grep', '-g', '--grep-invert', '--shard', '--project', '--test-list', '--test-list-invert', '--config', '-c', '--reporter'],
  ...['--workers', '-j', '--timeout', '--retries', '--repeat-each', '--output', '--max-failures', '--global-timeout', '--tsconfig'],
  ...['--update-snapshots', '-u', '--update-source-method', '--trace', '--browser', '--add-reporter'],
]);

export interface Selection {
  /** `--list`: nothing runs and no report is written. */
  listing: boolean;
  /** Why the run is partial (a grep, files, a shard…), or undefined for the whole suite. */
  partial?: string;
  /** The command line names its reporters (`--reporter`), replacing the configuration's. */
  ownReporters: boolean;
  /** Its file filters (the arguments that are no option), as typed. */
  files: string[];
  /** Its `--grep-invert` patterns. */
  grepInvert: string[];
  /** `--shuffle`, with or without a seed. */
  shuffle: boolean;
}

/** Options whose value is optional (`--only-changed [ref]`, `--shuffle [seed]`): the next argument, unless it is an option. */
const OPTIONAL_VALUE = new Set(['--only-changed', '--shuffle']);

export function readSelection(argv: readonly string[]): Selection {
  const args = argv.slice(argv.indexOf('test') + 1);
  const options: Array<[string, string]> = [];
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) files.push(a);
    else if (a.includes('=')) options.push([a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]);
    else options.push([a, TAKES_VALUE.has(a) || (OPTIONAL_VALUE.has(a) && i + 1 < args.length && !args[i + 1].startsWith('-')) ? (args[++i] ?? '') : '']);
  }
  const value = (...names: string[]) => options.find(([n]) => names.includes(n))?.[1];
  const has = (...names: string[]) => options.some(([n]) => names.includes(n));
  const shard = value('--shard');
  const reasons = [
    ...(has('--grep', '-g') ? [`--grep ${value('--grep', '-g')}`] : []),
    ...(has('--grep-invert') ? [`--grep-invert ${value('--grep-invert')}`] : []),
    ...(files.length ? [`files ${files.join(', ')}`] : []),
    ...(shard && !/^\d+\/1$/.test(shard) ? [`--shard ${shard}`] : []),
    ...['--last-failed', '--only-changed', '--test-list', '--test-list-invert'].filter((n) => has(n)),
  ];
  return {
    listing: has('--list'),
    partial: reasons.length ? reasons.join(', ') : undefined,
    ownReporters: has('--reporter'),
    files,
    grepInvert: options.filter(([n]) => n === '--grep-invert').map(([, v]) => v),
    shuffle: has('--shuffle'),
  };
}
