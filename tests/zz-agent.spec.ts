/**
 * AG: the private location agent's health endpoints and its shutdown. With AGENT_COMMAND (the embedded
 * agent by default) the suite starts the agent on a port it chose, probes it, sends SIGTERM and probes
 * all three endpoints until the process exits: readiness must turn 503, liveness and /health stay 200;
 * and it starts the agent once without AGENT_HEALTH_PORT, to find it on the default port. Both sessions
 * are lived by the runner from the start of the run, and judged here at the end. With only AGENT_URL it
 * probes the three endpoints.
 */
import { describeWatch, judgeAgentSession, probeAll, STARTUP_LIMIT_MS } from '../support/agent/lifecycle';
import { agentSession } from '../support/agent/background-session';
import { SHUTDOWN_TIMING } from '../support/agent/table';
import { EMBEDDED_AGENT_COMMAND } from '../support/agent/embedded-agent';
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
      test.setTimeout(SHUTDOWN_TIMING.watchAttempts * (2 * STARTUP_LIMIT_MS + SHUTDOWN_TIMING.watchLimitMs) + 10_000);
      if (!config.embedded && config.agentCommand === EMBEDDED_AGENT_COMMAND) {
        verdict.note(
          'agent-under-test',
          "AGENT_COMMAND and AGENT_URL are unset: this is the embedded reference agent, not the target's; set one of them to test yours",
        );
      }
      const outcome = await agentSession('shutdown', config.agentCommand!);
      if ('skipped' in outcome) return test.skip(true, outcome.skipped);
      if (outcome.session.watch) attachText(info, 'shutdown probes', describeWatch(outcome.session.watch));
      const undecided = judgeAgentSession(verdict, outcome.session);
      // Not verified rather than failed: the suite could not see, the agent did nothing wrong that it saw.
      test.skip(!!undecided, undecided);
    },
  );

  test(
    'health endpoints on port 8081 when AGENT_HEALTH_PORT is unset',
    // Judged last, like the shutdown: the runner lives this session too.
    { annotation: clauses('AG-4'), lock: lastLock() },
    async ({ config, verdict }) => {
      test.skip(!config.agentCommand, 'AGENT_COMMAND is not set: the suite cannot start an agent without AGENT_HEALTH_PORT');
      test.setTimeout(2 * STARTUP_LIMIT_MS + 30_000);
      const outcome = await agentSession('default-port', config.agentCommand!);
      if ('skipped' in outcome) return test.skip(true, outcome.skipped);
      judgeAgentSession(verdict, outcome.session);
    },
  );
});
