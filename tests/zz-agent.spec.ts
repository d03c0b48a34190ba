/**
 * AG: the private location agent's health endpoints and its shutdown. With AGENT_COMMAND (the embedded
 * agent by default) the suite starts the agent on a port it chose, probes it, sends SIGTERM and probes
 * all three endpoints until the process exits: readiness must turn 503, liveness and /health stay 200.
 * That session is lived by the runner from the start of the run, and judged here at the end. With only
 * AGENT_URL it probes the three endpoints.
 */
import { AGENT_DEFAULT_PORT } from '../support/document/facts';
import { isPortFree, withPortLock } from '../support/agent/process';
import { describeWatch, judgeAgentSession, liveAgentSession, probeAll, STARTUP_LIMIT_MS } from '../support/agent/lifecycle';
import { watchedAgentSession } from '../support/agent/background-session';
import { SHUTDOWN_TIMING } from '../support/agent/table';
import { EMBEDDED_AGENT_COMMAND } from '../support/run/config';
import { lastLock } from '../support/run/schedule';
import { attachText } from '../support/run/attach';
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
    // Judged last: the runner lives this agent's session while the other tests run (background-session.ts).
    { annotation: clauses('AG-1', 'AG-2', 'AG-3', 'AG-4', 'AG-5'), lock: lastLock() },
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
      const session = await watchedAgentSession(config.agentCommand!);
      if (session.watch) attachText(info, 'shutdown probes', describeWatch(session.watch));
      judgeAgentSession(verdict, session);
    },
  );

  test('health endpoints on port 8081 when AGENT_HEALTH_PORT is unset', { annotation: clauses('AG-4') }, async ({ config, verdict }) => {
    test.skip(!config.agentCommand, 'AGENT_COMMAND is not set: the suite cannot start an agent without AGENT_HEALTH_PORT');
    test.setTimeout(2 * STARTUP_LIMIT_MS + 30_000);
    await withPortLock(AGENT_DEFAULT_PORT, async () => {
      test.skip(!(await isPortFree(AGENT_DEFAULT_PORT)), `port ${AGENT_DEFAULT_PORT} is in use on this machine: the default port cannot be tried`);
      judgeAgentSession(verdict, await liveAgentSession(config.agentCommand!, undefined, 'signal'));
    });
  });
});
