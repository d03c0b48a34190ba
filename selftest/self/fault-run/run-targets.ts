/**
 * Runs the suite once against many faulty targets (plan.ts) and returns, per target, what a run against
 * it alone would have given the self-test: its failures (failures.json names each failure's test, under
 * its target's describe), and the run's exit code, output and time limit, which the targets share. The burst, which must come
 * after every other test of its target (support/run/schedule.ts), gets a target of its own instead: the
 * same faults and settings, a service of its own.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { freePorts } from '../../../support/run/loopback-ports';
import { runSuite, type SuiteRun } from '../../../scripts/suite-runner';
import { TEST_FILES } from '../../../support/run/test-files';
import type { Failure } from '../../../support/checks/failure';
import { FAULT_RUN_PLAN_VARIABLE, targetFile, type FaultRunPlan, type PlannedTarget } from './plan';
import { writeWaiveAll } from './waive-all';
import { BURST_TARGET_LIMIT, faultRunEnv } from './window';

export interface TargetSpec {
  name: string;
  fault: string;
  env?: Record<string, string>;
  files: string[];
  /** The tests of a run against it alone, as the baseline names them (`[contract] › <file> › <titles>`); all of its files when unset. */
  tests?: string[];
}

export type TargetRun = SuiteRun & { stopped?: string };

const DECLARE_TARGET = join(__dirname, 'tests-per-target');

function writeTargetFile(plan: FaultRunPlan, t: PlannedTarget, index: number): void {
  const body = `import { declareTarget } from ${JSON.stringify(DECLARE_TARGET)};\ndeclareTarget(${JSON.stringify(t.name)});\n`;
  writeFileSync(join(plan.testsDir, targetFile(t, index)), body);
}

/** The target whose tests made a failure: the describe tests-per-target.ts declares them in, first under the file. */
const targetOf = (f: Failure) => f.test!.split(' › ')[1];

/** A test's baseline name (`[contract] › <file> › <describes and title>`), read once for both of its parts. */
const parseBaselineName = (name: string) => {
  const [, file, ...titles] = name.split(' › ');
  return { file, titles };
};

const isBurstLine = (line: string) => parseBaselineName(line).file === basename(TEST_FILES.burst);

/** The target, and its burst as a target of its own (`<name>-burst`) when it has other tests too. */
function splitBurst(s: TargetSpec): TargetSpec[] {
  if (!s.files.includes(TEST_FILES.burst)) return [s];
  const burstAlone = { ...s, env: { ...BURST_TARGET_LIMIT, ...s.env } };
  if (s.files.length === 1) return [burstAlone];
  const rest = { ...s, files: s.files.filter((f) => f !== TEST_FILES.burst), tests: s.tests?.filter((l) => !isBurstLine(l)) };
  const burst = { ...burstAlone, name: `${s.name}-burst`, files: [TEST_FILES.burst], tests: s.tests?.filter(isBurstLine) };
  const parts = [rest, burst].filter((p) => !p.tests || p.tests.length);
  return parts.length ? parts : [s];
}

export async function runTargets(wanted: TargetSpec[], options: { workers: number; timeoutMs: number }): Promise<Map<string, TargetRun>> {
  const dir = mkdtempSync(join(tmpdir(), 'contract-selftest-targets-'));
  const specs = wanted.flatMap(splitBurst);
  try {
    const ports = await freePorts(specs.length);
    const targets: PlannedTarget[] = specs.map((s, i) => ({
      name: s.name,
      fault: s.fault,
      env: faultRunEnv(s.env),
      files: s.files,
      tests: s.tests?.map((line) => parseBaselineName(line).titles),
      port: ports[i],
      dir: join(dir, s.name),
    }));
    const plan: FaultRunPlan = {
      targets,
      reportDir: join(dir, 'reports'),
      outputDir: join(dir, 'test-results'),
      testsDir: join(dir, 'targets'),
      stoppedFile: join(dir, 'stopped.json'),
      waiversFile: writeWaiveAll(join(dir, 'waive-all.json')),
    };
    const planFile = join(dir, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan));
    mkdirSync(plan.testsDir);
    targets.forEach((t, i) => writeTargetFile(plan, t, i));
    const run = await runSuite({
      args: ['--config', 'selftest/fault-run.config.ts'],
      env: { [FAULT_RUN_PLAN_VARIABLE]: planFile },
      reportDir: plan.reportDir,
      workers: options.workers,
      timeoutMs: options.timeoutMs,
    });
    // Global setup writes it once every target is up: without it no test ran against its own target.
    const stopped = readStopped(plan.stoppedFile);
    if (!stopped) throw new Error(`the run of ${targets.length} faulty targets did not start them:\n${run.output.trim().split('\n').slice(-15).join('\n')}`);
    return new Map(
      wanted.map((w) => {
        const own = (name: string) => name === w.name || name === `${w.name}-burst`;
        const why = Object.entries(stopped).find(([name]) => own(name))?.[1];
        return [w.name, { ...run, failures: run.failures.filter((f) => own(targetOf(f))), stopped: why }];
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readStopped(file: string): Record<string, string> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  } catch {
    return undefined;
  }
}
