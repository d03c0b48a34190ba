/**
 * AG: the private location agent's health endpoints through its whole life. With AGENT_COMMAND (the
 * embedded agent by default) the suite starts the agent on a port it chose and probes all three
 * endpoints from its start to its exit: from their first answer liveness and /health say 200, readiness
 * 503 or 200 until it first says 200 and 200 from then until SIGTERM, then 503 while liveness and
 * /health stay 200; none stops answering while the process lives. And it starts the agent once without
 * AGENT_HEALTH_PORT, to find it on the default port. With only AGENT_URL it probes the three endpoints.
 *
 * The life is watched from its test: a worker runs one test at a time, so while this one awaits its
 * probes the worker's event loop has nothing else to do and the watch is not held up.
 */
import { defaultPortSession, describeWatch, judgeAgentSession, liveWatchedSession, probeAll, STARTUP_LIMIT_MS } from '../support/agent/lifecycle';
import { LIFE_TIMING, SHUTDOWN_TIMING } from '../support/agent/table';
import { clauses, test } from '../support/test';
import { AGENT_DEFAULT_PORT } from '../support/document/facts';
import { EMBEDDED, type Config } from '../support/run/config';
import type { Verdict } from '../support/checks/verdict';

/** Against a remote target with no agent of its own named, the embedded agent stands in: nothing of the target is verified. */
function noteStandIn(config: Config, verdict: Verdict): void {
  if (!config.embedded && config.agentCommand === EMBEDDED.agentCommand)
    verdict.note(
      'agent-under-test',
      "AGENT_COMMAND and AGENT_URL are unset: this is the embedded reference agent, not the target's; set one of them to test yours",
    );
}

test.describe('private location agent', () => {
  test('health endpoints of a running agent (AGENT_URL)', clauses('AG-1', 'AG-2', 'AG-3'), async ({ config, verdict }) => {
    test.skip(
      !config.agentUrl,
      config.agentCommand && (config.embedded || config.agentCommand !== EMBEDDED.agentCommand)
        ? 'AGENT_URL is not set: the agent is started through AGENT_COMMAND instead'
        : 'AGENT_URL is not set: no running agent to probe',
    );
    await probeAll(verdict, config.agentUrl!);
  });

  // Two agents side by side, one on a port given and one on the default port: the one test waits for
  // the slower, instead of a worker waiting for each in turn.
  test(
    `health endpoints on the port set by AGENT_HEALTH_PORT and on ${AGENT_DEFAULT_PORT} when it is unset, and shutdown`,
    clauses('AG-1', 'AG-2', 'AG-3', 'AG-4', 'AG-5'),
    async ({ config, verdict }, info) => {
      test.skip(
        !config.agentCommand,
        `AGENT_COMMAND is not set: ${config.agentUrl ? 'with only AGENT_URL the suite cannot start, port or stop the agent' : 'against BASE_URL the suite starts no agent of its own (set AGENT_COMMAND, or AGENT_URL for a running one)'}`,
      );
      test.setTimeout(SHUTDOWN_TIMING.watchAttempts * (2 * STARTUP_LIMIT_MS + LIFE_TIMING.steadyLimitMs + SHUTDOWN_TIMING.watchLimitMs) + 10_000);
      noteStandIn(config, verdict);
      const [session, byDefault] = await Promise.all([
        liveWatchedSession(config.agentCommand!, config.environment),
        defaultPortSession(config.agentCommand!, config.environment),
      ]);
      if ('skipped' in byDefault) verdict.note('agent-default-port', byDefault.skipped);
      else judgeAgentSession(verdict, byDefault.session);
      if (session.watch) await info.attach('agent probes', { body: describeWatch(session.watch), contentType: 'text/plain' });
      const undecided = judgeAgentSession(verdict, session);
      // Not verified rather than failed: the suite could not see, the agent did nothing wrong that it
      // saw; unless something else failed here, which a skip would hide.
      if (undecided && verdict.failures.some((f) => !f.waiver)) verdict.note('agent-shutdown', undecided);
      else test.skip(!!undecided, undecided);
    },
  );
});
