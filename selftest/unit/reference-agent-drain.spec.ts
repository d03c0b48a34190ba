// The agent's drain faults, in-process: the health handler over a state and a fake clock, asked at
// chosen moments of a 1000 ms drain. Each fault changes one endpoint in one part of the drain only.
import { expect, test } from '@playwright/test';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { healthHandler, type AgentState } from '../../reference/agent/health';
import { agentSeams } from './reference-testing';
import { fakeClock } from './reference-testing';

const ENDPOINTS = ['/-/readiness', '/-/liveness', '/health'] as const;
const MOMENTS = [0, 1, 299, 300, 500, 799, 800, 999] as const; // ms after SIGTERM

/** The statuses of the three endpoints before SIGTERM ("ready") and at each moment of the drain. */
function timeline(mockFault: string): Record<string, number[]> {
  const clock = fakeClock();
  const state: AgentState = { drainingSince: null, drainMs: 1000 };
  const handle = healthHandler(state, agentSeams(mockFault), clock.read);
  const ask = (url: string) => {
    let status = 0;
    handle(
      { url, method: 'GET' } as IncomingMessage,
      {
        writeHead: (s: number) => {
          status = s;
        },
        end: () => {},
      } as unknown as ServerResponse,
    );
    return status;
  };
  const out: Record<string, number[]> = { ready: ENDPOINTS.map(ask) };
  state.drainingSince = clock.now;
  for (const t of MOMENTS) {
    clock.now = state.drainingSince + t;
    out[t] = ENDPOINTS.map(ask);
  }
  return out;
}

/** [readiness, liveness, health] at each moment, as the clean agent answers. */
const CLEAN: Record<string, number[]> = Object.fromEntries([['ready', [200, 200, 200]], ...MOMENTS.map((t) => [String(t), [503, 200, 200]])]);
const at = (moments: number[], index: number, status: number): Record<string, number[]> =>
  Object.fromEntries(Object.entries(CLEAN).map(([k, v]) => [k, moments.includes(Number(k)) ? v.map((s, i) => (i === index ? status : s)) : v]));

test('agent drain: clean, readiness falls at SIGTERM and the other two stay 200 to the end', () => {
  expect(timeline('')).toEqual(CLEAN);
});

test('agent-ready-late:300: readiness stays 200 for the first 300 ms of the drain only', () => {
  expect(timeline('agent-ready-late:300')).toEqual(at([0, 1, 299], 0, 200));
});

test('agent-health-dies:<endpoint>: that endpoint is 503 for the whole drain, not before', () => {
  expect(timeline('agent-health-dies:health')).toEqual(at([...MOMENTS], 2, 503));
  expect(timeline('agent-health-dies:liveness')).toEqual(at([...MOMENTS], 1, 503));
});

test('agent-dies-late:<endpoint>:200: that endpoint is 503 in the last 200 ms of the drain only', () => {
  expect(timeline('agent-dies-late:liveness:200')).toEqual(at([800, 999], 1, 503));
  expect(timeline('agent-dies-late:health:200')).toEqual(at([800, 999], 2, 503));
});

test('agent drain faults are ignored by the service and the service faults by the agent', () => {
  expect(timeline('auth-skip:any:key,errbody:any:any:wording,rl-limit:+1')).toEqual(CLEAN);
});

test('agent-down:<endpoint>:<status>: that endpoint answers the status while the agent runs, not during the drain', () => {
  expect(timeline('agent-down:readiness:503')).toEqual({ ...CLEAN, ready: [503, 200, 200] });
  expect(timeline('agent-down:liveness:500')).toEqual({ ...CLEAN, ready: [200, 500, 200] });
  expect(timeline('agent-down:health:404')).toEqual({ ...CLEAN, ready: [200, 200, 404] });
});

/** [readiness, liveness, health] at each moment after the port opened (ms), the agent running; each endpoint asked once a moment. */
function startUp(mockFault: string, moments = [0, 1, 149, 150, 249, 250, 400]): Record<string, number[]> {
  const clock = fakeClock();
  const state: AgentState = { drainingSince: null, drainMs: 1000, startedAt: clock.now };
  const handle = healthHandler(state, agentSeams(mockFault), clock.read);
  const out: Record<string, number[]> = {};
  for (const t of moments) {
    clock.now = state.startedAt! + t;
    out[t] = ENDPOINTS.map((url) => {
      let status = 0;
      handle({ url, method: 'GET' } as IncomingMessage, { writeHead: (s: number) => void (status = s), end: () => {} } as unknown as ServerResponse);
      return status;
    });
  }
  return out;
}

const RUNNING: Record<string, number[]> = startUp('');
const startingAt = (moments: number[], index: number, status: number) =>
  Object.fromEntries(Object.entries(RUNNING).map(([k, v]) => [k, moments.includes(Number(k)) ? v.map((s, i) => (i === index ? status : s)) : v]));

test('agent life faults: start-up and steady state, by the time since the port opened', () => {
  expect(Object.values(RUNNING).every((v) => v.join() === '200,200,200')).toBe(true);
  expect(startUp('agent-liveness-first-503')).toEqual(startingAt([0], 1, 503));
  expect(startUp('agent-ready-starting-500')).toEqual(startingAt([0, 1, 149], 0, 500));
  expect(startUp('agent-ready-flap')).toEqual(startingAt([150, 249], 0, 503));
  expect(startUp('agent-health-500-steady')).toEqual(startingAt([150, 249], 2, 500));
});

test('agent life faults keep out of the drain: the steady-state blips are not the drain faults', () => {
  expect(timeline('agent-ready-flap,agent-health-500-steady')).toEqual(CLEAN);
});
