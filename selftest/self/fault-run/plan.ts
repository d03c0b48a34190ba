/**
 * One Playwright run with many faulty targets (selftest/fault-run.config.ts): each target is the
 * reference service with its own faults and settings, tested by a describe of its own whose tests get
 * the configuration a run of the suite against it alone would read (tests-per-target.ts).
 * A run of its own per target costs Playwright's start, test listing and the service's start each time;
 * in one run they are paid once (the services run in the runner: they start in milliseconds).
 *
 * The plan is a file written by the self-test (run-targets.ts) and named in the environment, which the
 * runner and its workers inherit: both load the target files and must declare the same tests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EMBEDDED_PORT_VARIABLE } from '../../../support/run/config';
import { AGENT_FAULTS_PLUGIN } from '../../faults/outside/agent-plugin';

export const FAULT_RUN_PLAN_VARIABLE = 'CONTRACT_SELFTEST_FAULT_RUN';
/** The run's one project, and how the file that declares a target's tests is named (in the plan's testsDir). */
export const FAULT_RUN_PROJECT = 'targets';
export const TARGET_FILE = /\.target\.ts$/;
/** Playwright runs files in the order of their names: a target's file is named by its place in the plan, to keep the plan's order. */
export const targetFile = (t: PlannedTarget, index: number) => `${String(index).padStart(4, '0')}-${t.name}.target.ts`;

export interface PlannedTarget {
  /** The title of its tests' describe; failures.json names it in each failure's test. */
  name: string;
  /** MOCK_FAULT: the service's and the embedded agent's faults. */
  fault: string;
  /** The target's own settings (the fault case's environment), for the service and the suite alike. */
  env: Record<string, string>;
  /** Suite files, as `tests/<file>`. */
  files: string[];
  /** The tests to run, by their titles under the target's describe (a run against it alone: their describes and title); all when unset. */
  tests?: string[][];
  port: number;
  /** The target's own folder: its spec, its request ledger, its reports (snapshots, last-run records). */
  dir: string;
}

export interface FaultRunPlan {
  targets: PlannedTarget[];
  /** failures.json (the clause matrix reporter's, every project's failures with their project). */
  reportDir: string;
  /** Playwright's own output. */
  outputDir: string;
  /** The run's test folder: a file per target (targetFile) that declares its tests. */
  testsDir: string;
  /** Targets whose spec could not be fetched (global setup writes it): their tests prove nothing. */
  stoppedFile: string;
  /** Waives every clause (waive-all.ts), in place of the project's own waivers, which must not hide a fault. */
  waiversFile: string;
}

export function readPlan(env: NodeJS.ProcessEnv = process.env): FaultRunPlan {
  const file = env[FAULT_RUN_PLAN_VARIABLE];
  if (!file) throw new Error(`${FAULT_RUN_PLAN_VARIABLE} is not set: this configuration runs a plan the self-test writes (selftest/self/faults.spec.ts)`);
  return JSON.parse(readFileSync(file, 'utf8')) as FaultRunPlan;
}

/**
 * What the suite reads for this target, over the runner's environment: the environment of a run against it alone.
 * The embedded agent the suite starts inherits it: its faults come in through its plugin (AGENT_PLUGINS).
 */
export function suiteEnv(t: PlannedTarget, plan: FaultRunPlan): Record<string, string> {
  return {
    ...t.env,
    MOCK_FAULT: t.fault,
    ...(t.fault && { AGENT_PLUGINS: AGENT_FAULTS_PLUGIN }),
    [EMBEDDED_PORT_VARIABLE]: String(t.port),
    REPORT_DIR: join(t.dir, 'reports'),
    WAIVERS_FILE: plan.waiversFile,
  };
}
