/**
 * AG: the private location agent's health endpoints and its shutdown. With AGENT_COMMAND (the embedded
 * agent by default) the suite starts the agent on a port it chose, probes it, sends SIGTERM and
 * watches readiness turn 503 while liveness stays 200, until the process exits. With only AGENT_URL it
 * probes the three endpoints.
 */
import { AGENT_DEFAULT_PORT } from '../support/document/facts';
import { freePort, isPortFree, probe, startAgent, waitUntilUp, withPortLock, type AgentProcess } from '../support/agent/process';
import { EMBEDDED_AGENT_COMMAND } from '../support/run/config';
import { clauses, test } from '../support/fixtures';
import type { Verdict } from '../support/checks/verdict';

const ENDPOINTS = [
  ['/-/readiness', 'AG-1'],
  ['/-/liveness', 'AG-2'],
  ['/health', 'AG-3'],
] as const;

/** Long enough for an AGENT_COMMAND that starts a container from a local image. */
const STARTUP_LIMIT_MS = 30_000;
/** Once it answers at all, an agent has this long to report ready. */
const READY_LIMIT_MS = 15_000;

async function waitUntilReady(baseUrl: string, limitMs: number): Promise<void> {
  for (const deadline = Date.now() + limitMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    const p = await probe(`${baseUrl}/-/readiness`, 1000);
    if ('status' in p && p.status === 200) return;
  }
}

/** Answers missing this many times in a row: the agent is gone (one lost probe on a busy machine is not). */
const GONE_AFTER_MISSES = 3;

/** A process that outlives its drain by this much after SIGTERM is stuck. */
const SHUTDOWN_LIMIT_MS = 30_000;
/** An agent that exits sooner than this after SIGTERM had nothing to drain: no readiness to watch. */
const INSTANT_EXIT_MS = 300;

async function probeAll(verdict: Verdict, baseUrl: string, portClause = false) {
  for (const [path, clause] of ENDPOINTS) {
    const p = await probe(`${baseUrl}${path}`);
    const got = 'status' in p ? p.status : p.error;
    verdict.check(clause, got === 200, `GET ${path} on ${baseUrl} did not answer 200`, got, '200');
    if (portClause) verdict.check('AG-4', 'status' in p, `nothing answers ${path} on the port given in AGENT_HEALTH_PORT (${baseUrl})`, got, 'the endpoints on that port');
  }
}

async function withAgent(verdict: Verdict, command: string, port: number | undefined, body: (agent: AgentProcess) => Promise<void>) {
  const agent = startAgent(command, port);
  try {
    const up = await waitUntilUp(agent, STARTUP_LIMIT_MS);
    const given = port === undefined ? `the default port ${AGENT_DEFAULT_PORT}` : `AGENT_HEALTH_PORT=${port}`;
    if (!verdict.check('AG-4', up, `the agent started by AGENT_COMMAND did not answer on ${given} within ${STARTUP_LIMIT_MS / 1000} s`, agent.output().split('\n').slice(-3).join(' | ') || 'no output', `the health endpoints on ${agent.baseUrl}`)) return;
    // Readiness may answer 503 while the agent starts: it must turn 200 once the agent is ready.
    await waitUntilReady(agent.baseUrl, READY_LIMIT_MS);
    await body(agent);
  } finally {
    agent.signal('SIGKILL');
  }
}

test.describe('private location agent', () => {
  test('health endpoints of a running agent (AGENT_URL)', { annotation: clauses('AG-1', 'AG-2', 'AG-3') }, async ({ config, verdict }) => {
    test.skip(!config.agentUrl, config.agentCommand ? 'AGENT_URL is not set: the agent is started through AGENT_COMMAND instead' : 'AGENT_URL is not set: no running agent to probe');
    await probeAll(verdict, config.agentUrl!);
  });

  test('health endpoints on the port set by AGENT_HEALTH_PORT, and shutdown', { annotation: clauses('AG-1', 'AG-2', 'AG-3', 'AG-4', 'AG-5') }, async ({ config, verdict }) => {
    test.skip(!config.agentCommand, `AGENT_COMMAND is not set: ${config.agentUrl ? 'with only AGENT_URL the suite cannot start, port or stop the agent' : 'against BASE_URL the suite starts no agent of its own (set AGENT_COMMAND, or AGENT_URL for a running one)'}`);
    test.setTimeout(2 * STARTUP_LIMIT_MS + SHUTDOWN_LIMIT_MS);
    if (!config.embedded && config.agentCommand === EMBEDDED_AGENT_COMMAND) {
      verdict.note('agent-under-test', 'AGENT_COMMAND and AGENT_URL are unset: this is the embedded reference agent, not the target\'s; set one of them to test yours');
    }
    const port = await freePort();
    await withAgent(verdict, config.agentCommand!, port, async (agent) => {
      await probeAll(verdict, agent.baseUrl, true);
      const signalled = Date.now();
      agent.signal('SIGTERM');
      let sawNotReady = false;
      let lastAnswerAt = signalled;
      let misses = 0;
      while (Date.now() - signalled < SHUTDOWN_LIMIT_MS) {
        const [ready, live] = await Promise.all([probe(`${agent.baseUrl}/-/readiness`, 1000), probe(`${agent.baseUrl}/-/liveness`, 1000)]);
        if (!('status' in ready) && !('status' in live)) {
          if (++misses >= GONE_AFTER_MISSES) break; // gone
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        misses = 0;
        lastAnswerAt = Date.now();
        if ('status' in ready) {
          if (ready.status === 503) sawNotReady = true;
          else verdict.check('AG-5', !sawNotReady, 'readiness answered again after it had turned 503 during shutdown', ready.status, '503 until exit');
        }
        if ('status' in live) verdict.check('AG-5', live.status === 200, 'liveness did not answer 200 during shutdown', live.status, '200 until exit');
        await new Promise((r) => setTimeout(r, 50));
      }
      verdict.check('AG-5', Date.now() - signalled < SHUTDOWN_LIMIT_MS, `the agent still answered ${SHUTDOWN_LIMIT_MS / 1000} s after SIGTERM`, 'still running', 'exit after draining');
      const drained = lastAnswerAt - signalled;
      if (drained < INSTANT_EXIT_MS) verdict.note('agent-shutdown', `the agent exited ${drained} ms after SIGTERM: no drain period to observe`);
      else verdict.check('AG-5', sawNotReady, `readiness never answered 503 during the ${drained} ms the agent kept running after SIGTERM`, 'readiness 200 until exit', '503 during shutdown');
    });
  });

  test('health endpoints on port 8081 when AGENT_HEALTH_PORT is unset', { annotation: clauses('AG-4') }, async ({ config, verdict }) => {
    test.skip(!config.agentCommand, 'AGENT_COMMAND is not set: the suite cannot start an agent without AGENT_HEALTH_PORT');
    test.setTimeout(2 * STARTUP_LIMIT_MS + 30_000);
    await withPortLock(AGENT_DEFAULT_PORT, async () => {
      test.skip(!(await isPortFree(AGENT_DEFAULT_PORT)), `port ${AGENT_DEFAULT_PORT} is in use on this machine: the default port cannot be tried`);
      await withAgent(verdict, config.agentCommand!, undefined, async (agent) => {
        await probeAll(verdict, agent.baseUrl, true);
        agent.signal('SIGTERM');
        await Promise.race([agent.exited, new Promise((r) => setTimeout(r, 10_000))]);
      });
    });
  });
});
