/**
 * AG: the private location agent's health endpoints and its shutdown. With AGENT_COMMAND (the embedded
 * agent by default) the suite starts the agent on a port it chose, probes it, sends SIGTERM and probes
 * all three endpoints until the process exits: readiness must turn 503, liveness and /health stay 200.
 * With only AGENT_URL it probes the three endpoints.
 */
import { AGENT_DEFAULT_PORT } from '../support/document/facts';
import { freePort, isPortFree, withPortLock } from '../support/agent/process';
import { probeAll, STARTUP_LIMIT_MS, withAgent } from '../support/agent/lifecycle';
import { judgeShutdown } from '../support/agent/shutdown-judge';
import { watchShutdown } from '../support/agent/shutdown-watch';
import { PHASE, SHUTDOWN_TIMING } from '../support/agent/table';
import { EMBEDDED_AGENT_COMMAND } from '../support/run/config';
import { clauses, test } from '../support/test';

test.describe('private location agent', () => {
  test('health endpoints of a running agent (AGENT_URL)', { annotation: clauses('AG-1', 'AG-2', 'AG-3') }, async ({ config, verdict }) => {
    test.skip(
      !config.agentUrl,
      config.agentCommand ? 'AGENT_URL is not set: the agent is started through AGENT_COMMAND instead' : 'AGENT_URL is not set: no running agent to probe',
    );
    await probeAll(verdict, config.agentUrl!);
  });

  test(
    'health endpoints on the port set by AGENT_HEALTH_PORT, and shutdown',
    { annotation: clauses('AG-1', 'AG-2', 'AG-3', 'AG-4', 'AG-5') },
    async ({ config, verdict }, info) => {
      test.skip(
        !config.agentCommand,
        `AGENT_COMMAND is not set: ${config.agentUrl ? 'with only AGENT_URL the suite cannot start, port or stop the agent' : 'against BASE_URL the suite starts no agent of its own (set AGENT_COMMAND, or AGENT_URL for a running one)'}`,
      );
      test.setTimeout(2 * STARTUP_LIMIT_MS + SHUTDOWN_TIMING.watchLimitMs + 10_000);
      if (!config.embedded && config.agentCommand === EMBEDDED_AGENT_COMMAND) {
        verdict.note(
          'agent-under-test',
          "AGENT_COMMAND and AGENT_URL are unset: this is the embedded reference agent, not the target's; set one of them to test yours",
        );
      }
      await withAgent(verdict, config.agentCommand!, await freePort(), async (agent) => {
        await probeAll(verdict, agent.baseUrl, true);
        const watch = await watchShutdown(agent, SHUTDOWN_TIMING);
        await info.attach('shutdown probes', {
          body: watch.samples.map((s) => `+${s.sentMs.toFixed(1)} ms ${s.path} → ${s.status ?? s.error} (+${s.answeredMs.toFixed(1)} ms)`).join('\n'),
          contentType: 'text/plain',
        });
        const { findings, notes } = judgeShutdown(watch.samples, SHUTDOWN_TIMING, watch.stillAnswering);
        for (const f of findings) verdict.at({ place: f.place, valueClass: PHASE.draining }).check(f.clause, f.ok, f.title, f.received, f.allowed);
        for (const n of notes) verdict.note('agent-shutdown', n);
      });
    },
  );

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
