// The MOCK_FAULT grammar of the parameterized kinds: each kind parses to its typed row, encoded JSON
// survives the comma split, a malformed row is one line naming it, and named faults keep working.
import { expect, test } from '@playwright/test';
import { KINDS } from '../faults/catalogue/fault-kinds';
import { FAULTS, listFaults, parseFaults } from '../faults/catalogue/faults';
import { row } from './reference-testing';

test('kinds: each valid row parses into what it says', () => {
  const f = parseFaults(
    [
      row('accept', 'API', { locations: ['US-EAST-1'], description: 'a,b:c' }),
      row('refuse', 'any', { frequency: 5, frequencyOffset: 51 }),
      'leak:tags',
      'auth-skip:runtime:scheme',
      'auth-strict:check-read',
      'errbody:check-update:415:not-json',
      'errbody:any:any:wording',
      'rl-limit:+5',
      'rl-limit:-1',
      'rl-exempt:check-read',
      'rl-headers:reset-ms',
      'agent-ready-late:300',
      'agent-health-dies:health',
      'agent-dies-late:liveness:200',
      'agent-exit-at-once',
    ].join(','),
  );
  expect(f.bodyMatches('accept', 'API', { locations: ['US-EAST-1'], description: 'a,b:c', name: 'x' })).toBe(true);
  expect(f.bodyMatches('accept', 'BROWSER', { locations: ['US-EAST-1'], description: 'a,b:c' })).toBe(false);
  expect(f.bodyMatches('refuse', 'BROWSER', { frequency: 5, frequencyOffset: 51 })).toBe(true);
  expect(f.leakedProperties()).toEqual(['tags']);
  expect([f.authSkips('runtime', 'scheme'), f.authSkips('check-read', 'scheme'), f.authSkips('runtime', 'key')]).toEqual([true, false, false]);
  expect([f.authStrict('check-read'), f.authStrict('runtime')]).toEqual([true, false]);
  expect(f.errorMutations('check-update', 415)).toEqual(['not-json', 'wording']);
  expect(f.errorMutations('runtime', 404)).toEqual(['wording']);
  expect(f.rateLimitDelta()).toBe(4);
  expect([f.rateLimitExempt('check-read'), f.rateLimitExempt('runtime')]).toEqual([true, false]);
  expect(f.headerLies()).toEqual(['reset-ms']);
  expect([f.readyLateMs(), f.healthDies('health'), f.healthDies('liveness'), f.diesLateMs('liveness'), f.diesLateMs('health')]).toEqual([
    300,
    true,
    false,
    200,
    0,
  ]);
  expect(f.has('agent-exit-at-once')).toBe(true);
});

const MALFORMED = [
  'no-such-kind:x',
  'accept:API',
  'accept:API:{}:x',
  'accept:api:%7B%7D',
  'accept:API:not-json',
  'accept:API:%5B1%5D',
  `accept:API:${encodeURIComponent('{"locationz":[]}')}`,
  'accept:API:%E0%A4%A',
  'leak:nothing',
  'leak',
  'auth-skip:runtimes:key',
  'auth-skip:runtime:keys',
  'auth-strict:',
  'errbody:runtime:200:wording',
  'errbody:runtime:404:shout',
  'errbody:runtime:4o4:wording',
  'rl-limit:one',
  'rl-limit:+1.5',
  'rl-exempt:everywhere',
  'rl-headers:lie',
  'agent-ready-late:-1',
  'agent-ready-late:1e3',
  'agent-health-dies:readiness',
  'agent-dies-late:health',
  'agent-dies-late:health:soon',
];

for (const text of MALFORMED) {
  test(`kinds: "${text}" is refused in one line naming it`, () => {
    expect(() => parseFaults(`cu-500,${text}`)).toThrow(/^MOCK_FAULT: [^\n]+$/);
    try {
      parseFaults(text);
    } catch (e) {
      expect((e as Error).message).toContain(text.split(':')[0]);
    }
  });
}

test('kinds: named faults are unchanged, and the ones that are a row of a kind behave as that row', () => {
  const f = parseFaults('auth-no-key-accepted,err-404-wording,cu-partial-apply,rl-bad-headers,agent-liveness-dies-on-shutdown,cu-500');
  expect(f.has('cu-500')).toBe(true);
  expect(f.has('auth-no-key-accepted')).toBe(true);
  expect(f.authSkips('check-update', 'key')).toBe(true);
  expect(f.errorMutations('runtime', 404)).toEqual(['wording']);
  expect(f.leakedProperties()).toEqual(['name']);
  expect(f.headerLies()).toEqual(['remaining-stuck']);
  expect(f.healthDies('liveness')).toBe(true);
  expect(() => parseFaults('cu-500,bogus-name')).toThrow('MOCK_FAULT: unknown fault name(s): bogus-name');
});

test('kinds: the fault list documents every named fault and every kind with its grammar', () => {
  const out = listFaults();
  for (const name of Object.keys(FAULTS)) expect(out).toContain(name);
  for (const k of Object.values(KINDS)) expect(out).toContain(k.grammar);
  expect(out).toContain('<place>: runtime | check-read | check-update | spec | any');
});
