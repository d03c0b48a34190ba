// The life watch against an agent in this process: it times each request by when it went out, sees the
// exit event, and a pause of its own process (here a busy loop right after SIGTERM) is a stall; where only
// seeing could tell, the session is judged as an error of the suite, never as a finding about the agent.
import { expect, test, type TestInfo } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Verdict } from '../../support/checks/verdict';
import { judgeAgentSession, type AgentSession } from '../../support/agent/lifecycle';
import { shellCommand, type AgentProcess } from '../../support/agent/process';
import { watchLife, type WatchStall } from '../../support/agent/life-watch';
import { judgeLife } from '../../support/agent/life-judge';
import { shutdownPart } from '../../support/agent/shutdown-watch';
import { AGENT_ENDPOINTS } from '../../support/agent/table';

/** An agent that drains for `drainMs` after SIGTERM (readiness 503), then closes its port, and "exits" `lingerMs` later. */
async function fakeAgent(drainMs: number, onSignal: () => void = () => {}, lingerMs = 0): Promise<AgentProcess> {
  let draining = false;
  const server = createServer((req, res) => {
    res.writeHead(req.url === '/-/readiness' && draining ? 503 : 200, { connection: 'close' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  let exit: (code: number) => void = () => {};
  const exited = new Promise<number | null>((r) => (exit = r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    output: () => '',
    signal: () => {
      draining = true;
      onSignal();
      setTimeout(() => {
        server.close(() => setTimeout(() => exit(0), lingerMs));
        server.closeAllConnections();
      }, drainMs);
    },
    exited,
  };
}

const busy = (ms: number) => {
  for (const end = performance.now() + ms; performance.now() < end;);
};

/** The shutdown part of a watch begun just now: SIGTERM at once. */
const watchShutdown = async (agent: AgentProcess) => shutdownPart(await watchLife(agent, 500).shutdown());

test('a watch sees readiness turn 503 and the port close, each request timed after SIGTERM', async () => {
  // A drain long enough to be seen even if this loaded worker pauses for a while.
  const watch = await watchShutdown(await fakeAgent(1000));
  expect(watch.samples.some((s) => s.path === '/-/readiness' && s.status === 503)).toBe(true);
  expect(watch.samples.at(-1)?.error).toBeDefined();
  expect(watch.samples.every((s) => s.sentMs >= 0 && s.answeredMs >= s.sentMs)).toBe(true);
});

test('a watcher held busy after SIGTERM records the stall, and its requests are timed when they went out', async () => {
  // The busy loop starts once the watch has begun its first probes (the signal handler runs before them).
  const watch = await watchShutdown(await fakeAgent(800, () => setImmediate(() => busy(300))));
  expect(watch.stalls.length).toBeGreaterThan(0);
  expect(watch.stalls[0].forMs).toBeGreaterThanOrEqual(250);
  // The first requests began before the busy loop but could only be written after it.
  const first = watch.samples.filter((s) => s.path === '/-/readiness')[0];
  expect(first.sentMs).toBeGreaterThanOrEqual(250);
});

const newVerdict = () => {
  const info = { annotations: [] as TestInfo['annotations'] } as TestInfo;
  return { verdict: new Verdict(info, false), notes: info.annotations };
};

const session = (stalls: WatchStall[]): AgentSession => ({
  port: 1,
  baseUrl: 'http://127.0.0.1:1',
  upLimitMs: 1000,
  up: true,
  output: '',
  running: Object.fromEntries(AGENT_ENDPOINTS.map(({ path }) => [path, 200])),
  watch: { samples: [], stillAnswering: false, stalls, signal: { beforeMs: 0, afterMs: 0 }, exitMs: 0, endMs: 500, exitMarginMs: 500 },
  rewatched: ['watch 1: readiness was never seen answering 503, but the watcher itself stalled before it found the agent gone'],
});

test('a session whose every watch stalled before anything was seen is undecided, not an AG-5 finding', () => {
  const { verdict } = newVerdict();
  expect(judgeAgentSession(verdict, session([{ atMs: 1, forMs: 400 }]))).toMatch(/could not be judged in 2 watch\(es\), the machine being too busy: .*stalled/);
  expect(verdict.failures).toEqual([]);
});

test('a session watched again after a stall is judged on its last watch, and says why it watched again', () => {
  const { verdict, notes } = newVerdict();
  expect(judgeAgentSession(verdict, session([]))).toBeUndefined();
  // The last watch saw nothing at all: with no stall, that is the agent's doing.
  expect(verdict.failures.map((f) => f.clause)).toContain('AG-5');
  expect(notes.map((n) => n.description)).toContainEqual(expect.stringMatching(/^watch 1: .*stalled.*; watched again$/));
});

test('a watched life: from the start, the steady state, SIGTERM and the exit event, a correct agent judged clean', async () => {
  const agent = await fakeAgent(300);
  const life = watchLife(agent, 500);
  expect(await life.until((samples) => samples.filter((s) => s.status === 200).length >= 9, 5000)).toBe(true);
  const w = await life.shutdown();
  expect(w.signal!.afterMs).toBeGreaterThanOrEqual(w.signal!.beforeMs);
  expect(w.exitMs).toBeGreaterThan(w.signal!.afterMs + 250);
  expect(w.samples.filter((s) => s.error).every((s) => s.sentMs > w.signal!.afterMs)).toBe(true);
  expect(judgeLife(w).findings).toEqual([]);
});

test('a port closed 1.5 s before the exit event is seen: every endpoint stopped answering while the process lived', async () => {
  const w = await watchLife(await fakeAgent(200, () => {}, 1500), 500).shutdown();
  // The watch waits no longer than the margin (and a little) after the port went: the verdict is in by then.
  expect(w.exitMs).toBeUndefined();
  expect(
    judgeLife(w)
      .findings.map((f) => `${f.clause} ${f.valueClass}`)
      .sort(),
  ).toEqual(['AG-2 draining', 'AG-3 draining', 'AG-5 draining', 'AG-5 draining']);
});

test("a simple command is exec'd, so that the process started is the agent and its exit event the agent's; a compound one is left to the shell", () => {
  expect(shellCommand('node support/run/embedded.mjs reference/agent/main.ts')).toBe('exec node support/run/embedded.mjs reference/agent/main.ts');
  expect(shellCommand('docker run --rm -e AGENT_HEALTH_PORT -p 8081:8081 agent:v8')).toMatch(/^exec docker run/);
  for (const compound of ['cd agent && ./start', './start | tee log', 'exec ./start', 'env X=$PORT ./start', './a; ./b'])
    expect(shellCommand(compound)).toBe(compound);
});
