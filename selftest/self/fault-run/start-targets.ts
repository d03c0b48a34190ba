/**
 * Global setup of a run of many targets: each planned target's reference service, started in this
 * (the runner's) process on its planned port, and its spec fetched and checked once, as the suite's own
 * global setup does for one target. A target that cannot be reached for its spec is named in the plan's
 * stopped file: a run against it alone would stop there, so its tests here prove nothing. Returns the
 * teardown that closes the services.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildService } from '../../../reference/service/app';
import { readConfig as readServiceConfig } from '../../../reference/service/config';
import { loadEnvFile, readConfig } from '../../../support/run/config';
import { fetchAndCacheSpec } from '../../../support/spec/spec-cache';
import { isSuiteError } from '../../../support/run/suite-error';
import { freePorts } from '../../../support/run/loopback-ports';
import { FAULT_RUN_PLAN_VARIABLE, readPlan, suiteEnv, type FaultRunPlan, type PlannedTarget } from './plan';
import { filesIn } from '../../../support/run/run-files';
import { outsideFaults } from '../../faults/outside/plugin';

type Service = Awaited<ReturnType<typeof buildService>>;

async function start(t: PlannedTarget, plan: FaultRunPlan): Promise<{ service: Service; stopped?: string }> {
  mkdirSync(t.dir, { recursive: true });
  const rateLimit = readConfig({ ...process.env, ...suiteEnv(t, plan) }).rateLimit;
  // As playwright.config.ts starts the embedded service: the suite's limit, on loopback; and as the
  // self-test starts it, with the faults applied from outside (REFERENCE_PLUGINS there).
  const config = readServiceConfig({
    ...process.env,
    ...suiteEnv(t, plan),
    PORT: String(t.port),
    HOST: '127.0.0.1',
    RATE_LIMIT_MAX: String(rateLimit.max),
    RATE_LIMIT_WINDOW_S: String(rateLimit.windowSeconds),
  });
  const service = await buildService({ ...config, plugins: [outsideFaults(t.fault)] });
  await listenOnFreePort(service, t);
  const suite = readConfig({ ...process.env, ...suiteEnv(t, plan) });
  try {
    await fetchAndCacheSpec(suite, filesIn(t.dir).specCache);
    return { service };
  } catch (e) {
    if (!isSuiteError(e, 'unreachable')) throw e;
    return { service, stopped: e.message };
  }
}

/**
 * The planned port, or another where something took it since it was planned (a port chosen free
 * minutes before is not reserved: other tests of the self-test listen too); the plan file is written
 * again with it, before any worker reads it.
 */
async function listenOnFreePort(service: Service, t: PlannedTarget): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await service.listen({ port: t.port, host: '127.0.0.1' });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 5) throw e;
      [t.port] = await freePorts(1);
    }
  }
}

export default async function startTargets(): Promise<() => Promise<void>> {
  loadEnvFile();
  const plan = readPlan();
  const started: Service[] = [];
  const stopped: Record<string, string> = {};
  try {
    for (const t of plan.targets) {
      const s = await start(t, plan);
      started.push(s.service);
      if (s.stopped) stopped[t.name] = s.stopped;
    }
  } catch (e) {
    await Promise.all(started.map((s) => s.close()));
    throw e;
  }
  writeFileSync(process.env[FAULT_RUN_PLAN_VARIABLE]!, JSON.stringify(plan));
  writeFileSync(plan.stoppedFile, JSON.stringify(stopped));
  return async () => {
    await Promise.all(started.map((s) => s.close()));
  };
}
