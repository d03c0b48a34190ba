/**
 * Snapshot and restore of checks (CU-9) against an in-memory fake target: comparisons, the fallback to
 * a smaller restore body, and the snapshot file's life (one per target; written first, kept by a new
 * worker of the same run, recovered from an earlier run, a failure naming the file when that recovery
 * fails, never in the way of another target).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { canonicalJson, changedProperties, restoreBody, sameValue, type CheckState } from '../../support/check-update/state';
import { currentRunId } from '../../support/run/run-files';
import {
  loadSnapshot,
  restoreCheck,
  restored,
  saveSnapshot,
  snapshotPath,
  takeSnapshot,
  type CheckAccess,
  type Send,
} from '../../support/check-update/snapshot';
import type { Exchange } from '../../support/http/exchange';

const WRITABLE = ['name', 'locations', 'description', 'frequency', 'frequencyOffset', 'checkType'];
const ORIGINAL: CheckState = {
  id: 'a',
  name: 'Original',
  locations: ['eu-west-1', 'us-east-1'],
  description: null,
  frequency: 10,
  frequencyOffset: 1,
  checkType: 'API',
  updated_at: 't0',
};

/**
 * The update's method and paths as a spec might give them: not PUT, and read and update on paths of
 * their own, so that a hard-coded method or a mixed-up path shows.
 */
const ROUTES: CheckAccess['routes'] = { method: 'PATCH', readPath: (id) => `/v1/checks/${id}`, updatePath: (id) => `/v1/update/checks/${id}` };
const ACCESS: CheckAccess = { routes: ROUTES, writable: WRITABLE, query: undefined, coupled: ['checkType', 'frequency', 'frequencyOffset'] };

/**
 * A target holding checks by id: GET on the read path, the routes' method on the update path, anything
 * else 405. `refuseOver` rejects bodies with more properties than that.
 */
function fakeTarget(refuseOver = Infinity) {
  const checks = new Map<string, CheckState>([['a', structuredClone(ORIGINAL)]]);
  const log: string[] = [];
  const reply = (status: number, json: unknown): Exchange => ({
    method: '',
    url: '',
    requestHeaders: {},
    status,
    headers: {},
    text: JSON.stringify(json),
    json,
    contentType: 'application/json',
    ms: 0,
  });
  const send: Send = async (method, path, options) => {
    log.push(`${method} ${path}`);
    const id = path.split('/').pop()!;
    const check = checks.get(id);
    const route = method === 'GET' ? ROUTES.readPath(id) : method === ROUTES.method ? ROUTES.updatePath(id) : undefined;
    if (route !== path) return reply(405, { statusCode: 405, error: 'Method Not Allowed' });
    if (!check) return reply(404, { statusCode: 404, error: 'Not Found' });
    if (method === 'GET') return reply(200, structuredClone(check));
    const body = options?.body as CheckState;
    if (Object.keys(body).length > refuseOver) return reply(400, { statusCode: 400, error: 'Bad Request' });
    Object.assign(check, body, { updated_at: `t${log.length}` });
    return reply(200, structuredClone(check));
  };
  return { checks, log, send };
}

test.describe('comparing states', () => {
  test('null and absent are the same; arrays (of plain values and of objects) are compared as multisets', () => {
    expect(sameValue(null, undefined)).toBe(true);
    expect(sameValue({ a: null }, {})).toBe(true);
    expect(sameValue(['b', 'a'], ['a', 'b'])).toBe(true);
    expect(sameValue(['a', 'a'], ['a', 'b'])).toBe(false);
    expect(sameValue([1], ['1'])).toBe(false);
    expect(sameValue([{ k: 1 }, { k: 2 }], [{ k: 2 }, { k: 1 }])).toBe(true);
    expect(sameValue([{ k: 1 }, { k: 1 }], [{ k: 1 }, { k: 2 }])).toBe(false);
    expect(sameValue([{ k: 1 }], [{ k: '1' }])).toBe(false);
    // Another order of keys, and of the subscriptions themselves; null and absent alike inside them.
    const subs = [
      { alertChannelId: 1, activated: true },
      { alertChannelId: 2, activated: false, note: null },
    ];
    expect(
      sameValue(subs, [
        { activated: false, alertChannelId: 2 },
        { activated: true, alertChannelId: 1 },
      ]),
    ).toBe(true);
    expect(
      sameValue(subs, [
        { activated: true, alertChannelId: 2 },
        { activated: false, alertChannelId: 1 },
      ]),
    ).toBe(false);
    expect(sameValue([{ a: [1, 2] }, { a: [3] }], [{ a: [3] }, { a: [2, 1] }])).toBe(true);
    expect(sameValue([[1, 2], [3]], [[3], [1, 2]])).toBe(true);
    expect(sameValue([[1, 2], [3]], [[1], [2, 3]])).toBe(false);
    expect(sameValue({ a: { b: [1, 2] } }, { a: { b: [2, 1] } })).toBe(true);
    expect(sameValue(0, null)).toBe(false);
    expect(sameValue('', null)).toBe(false);
  });

  test('canonical JSON: stable key order, null and absent alike, arrays as multisets', () => {
    expect(canonicalJson({ b: 1, a: [2, 1], c: null })).toBe(canonicalJson({ a: [1, 2], b: 1 }));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
  });

  test('only writable properties count as changes', () => {
    const after = { ...ORIGINAL, name: 'x', updated_at: 't9', locations: ['us-east-1', 'eu-west-1'] };
    expect(changedProperties(ORIGINAL, after, WRITABLE)).toEqual(['name']);
  });

  test("the restore body holds the snapshot's writable properties, or only the ones asked for", () => {
    expect(Object.keys(restoreBody(ORIGINAL, [...WRITABLE, 'tags']))).toEqual(WRITABLE);
    expect(restoreBody(ORIGINAL, WRITABLE, ['name'])).toEqual({ name: 'Original' });
  });
});

test.describe('restoring a check', () => {
  test('nothing changed: nothing is sent', async () => {
    const t = fakeTarget();
    const r = await restoreCheck(ACCESS, 'a', ORIGINAL, t.send);
    expect(restored(r)).toBe(true);
    expect(r.changed).toEqual([]);
    expect(t.log).toEqual(['GET /v1/checks/a']);
  });

  test('changed properties are put back and verified by a read', async () => {
    const t = fakeTarget();
    Object.assign(t.checks.get('a')!, { name: 'changed', frequency: 0, frequencyOffset: 10 });
    const r = await restoreCheck(ACCESS, 'a', ORIGINAL, t.send);
    expect(r).toMatchObject({ changed: ['name', 'frequency', 'frequencyOffset'], remaining: [] });
    expect(restored(r)).toBe(true);
    expect(t.log).toEqual(['GET /v1/checks/a', 'PATCH /v1/update/checks/a', 'GET /v1/checks/a']);
  });

  test('a refused full body falls back to the changed properties with their coupled ones', async () => {
    const t = fakeTarget(4);
    Object.assign(t.checks.get('a')!, { name: 'changed' });
    const r = await restoreCheck(ACCESS, 'a', ORIGINAL, t.send);
    expect(restored(r)).toBe(true);
    expect(r.steps).toEqual([`PATCH ${WRITABLE.length} properties → 400`, 'PATCH 4 properties → 200']);
  });

  test('a target that refuses every restore is reported, not hidden', async () => {
    const t = fakeTarget(0);
    Object.assign(t.checks.get('a')!, { name: 'changed' });
    const r = await restoreCheck(ACCESS, 'a', ORIGINAL, t.send);
    expect(restored(r)).toBe(false);
    expect(r.error).toContain('refused');
    expect(r.remaining).toEqual(['name']);
  });
});

test.describe('the snapshot file', () => {
  let dir: string;
  test.beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'check-state-'));
  });
  test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const options = (send: Send, file: string, baseUrl = 'https://staging.example', runId = 'run-1') => ({
    file,
    baseUrl,
    embedded: false,
    runId,
    id: 'a',
    ...ACCESS,
    send,
  });

  test("is written before the first update, with the state read and the run's id", async () => {
    const t = fakeTarget();
    const file = join(dir, 'snap.json');
    const { snapshot, notes, current } = await takeSnapshot(options(t.send, file));
    expect(notes).toEqual([]);
    expect(loadSnapshot(file)).toEqual(snapshot);
    expect(snapshot.runId).toBe('run-1');
    expect(snapshot.checks.a).toEqual(ORIGINAL);
    expect(current).toEqual(ORIGINAL);
  });

  test('of this same run (a new worker after a failed test): kept, nothing restored, the current state read', async () => {
    const t = fakeTarget(0); // refuses every update: a restore attempt would fail
    const file = join(dir, 'snap.json');
    await takeSnapshot(options(t.send, file));
    Object.assign(t.checks.get('a')!, { name: 'changed by a test of this run', description: 'dddd' });
    t.log.length = 0;
    const { snapshot, notes, current } = await takeSnapshot(options(t.send, file));
    expect(notes).toEqual([expect.stringMatching(/^this run's snapshot of .* kept/)]);
    expect(t.log).toEqual(['GET /v1/checks/a']);
    expect(snapshot.checks.a).toEqual(ORIGINAL);
    expect(loadSnapshot(file)?.checks.a).toEqual(ORIGINAL);
    expect(current).toMatchObject({ name: 'changed by a test of this run', description: 'dddd' });
  });

  test('left by an interrupted earlier run against the same target: restored first and kept as the snapshot', async () => {
    const t = fakeTarget();
    const file = join(dir, 'snap.json');
    await takeSnapshot(options(t.send, file, undefined, 'run-0'));
    Object.assign(t.checks.get('a')!, { name: 'left over', frequency: 120, frequencyOffset: 2 });
    const { snapshot, notes, current } = await takeSnapshot(options(t.send, file));
    expect(notes).toEqual([expect.stringMatching(/^left by an earlier run \(.+\): check a: restored /)]);
    expect(snapshot.checks.a.name).toBe('Original');
    expect(current).toEqual(ORIGINAL);
    expect(t.checks.get('a')!.name).toBe('Original');
    // Taken over by this run: a new worker of it keeps it.
    expect(loadSnapshot(file)).toMatchObject({ runId: 'run-1', recovery: [expect.stringContaining('restored')] });
  });

  test('of an earlier run that cannot be put back: the family fails with one line naming the file; the file stays', async () => {
    const t = fakeTarget(0);
    const file = join(dir, 'snap.json');
    await takeSnapshot(options(t.send, file, undefined, 'run-0'));
    Object.assign(t.checks.get('a')!, { name: 'left over' });
    const error = await takeSnapshot(options(t.send, file)).catch((e) => e);
    expect(error).toMatchObject({ kind: 'cannot-test' });
    expect(error.message).not.toContain('\n');
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/delete that file/);
    // The original values stay on disk for the user, with the earlier run's id.
    expect(loadSnapshot(file)).toMatchObject({ runId: 'run-0', checks: { a: ORIGINAL } });
    // Another worker of the same run fails at once, sending nothing; the next run tries again.
    t.log.length = 0;
    await expect(takeSnapshot(options(t.send, file))).rejects.toThrow(error.message);
    expect(t.log).toEqual([]);
    await expect(takeSnapshot(options(t.send, file, undefined, 'run-2'))).rejects.toMatchObject({ kind: 'cannot-test' });
    expect(t.log.length).toBeGreaterThan(0);
  });

  test("of an older version, without a run id: an earlier run's, restored", async () => {
    const t = fakeTarget();
    const file = join(dir, 'snap.json');
    saveSnapshot(file, { version: 1, baseUrl: 'https://staging.example', embedded: false, savedAt: 'x', checks: { a: ORIGINAL } });
    Object.assign(t.checks.get('a')!, { name: 'left over' });
    const { notes } = await takeSnapshot(options(t.send, file));
    expect(notes).toEqual([expect.stringMatching(/^left by an earlier run \(.+\): check a: restored /)]);
    expect(t.checks.get('a')!.name).toBe('Original');
  });

  test('one file per target: the name comes from the base URL (or "embedded") and the check id', () => {
    const path = (baseUrl: string, embedded: boolean, id: string) => snapshotPath('reports', baseUrl, embedded, id);
    expect(path('https://staging.example/', false, 'a')).toBe(path('https://staging.example', false, 'a'));
    expect(path('https://staging.example', false, 'a')).not.toBe(path('https://prod.example', false, 'a'));
    expect(path('https://staging.example', false, 'a')).not.toBe(path('https://staging.example', false, 'b'));
    // The embedded service gets a new port every run: its key does not depend on it.
    expect(path('http://127.0.0.1:1', true, 'a')).toBe(path('http://127.0.0.1:2', true, 'a'));
    expect(path('https://staging.example', false, 'a')).toMatch(/^reports\/\.check-snapshot-[0-9a-f]{12}\.json$/);
  });

  test("another target's leftover never blocks this one", async () => {
    const t = fakeTarget();
    const other = snapshotPath(dir, 'https://prod.example', false, 'z');
    saveSnapshot(other, { version: 1, baseUrl: 'https://prod.example', embedded: false, savedAt: 'x', runId: 'run-0', checks: { z: {} } });
    const file = snapshotPath(dir, 'https://staging.example', false, 'a');
    const { snapshot, notes } = await takeSnapshot(options(t.send, file));
    expect(notes).toEqual([]);
    expect(Object.keys(snapshot.checks)).toEqual(['a']);
    expect(loadSnapshot(other)?.baseUrl).toBe('https://prod.example');
  });

  test('a file of this key that holds another target: never overwritten', async () => {
    const t = fakeTarget();
    const file = join(dir, 'snap.json');
    saveSnapshot(file, { version: 1, baseUrl: 'https://prod.example', embedded: false, savedAt: 'x', checks: { z: {} } });
    await expect(takeSnapshot(options(t.send, file))).rejects.toMatchObject({
      kind: 'cannot-test',
      message: expect.stringContaining('holds a snapshot of checks on'),
    });
    expect(loadSnapshot(file)?.baseUrl).toBe('https://prod.example');
  });

  test('of an embedded service that is gone: replaced', async () => {
    const t = fakeTarget();
    const file = join(dir, 'snap.json');
    saveSnapshot(file, { version: 1, baseUrl: 'http://127.0.0.1:1', embedded: true, savedAt: 'x', checks: { z: {} } });
    const { snapshot } = await takeSnapshot(options(t.send, file));
    expect(Object.keys(snapshot.checks)).toEqual(['a']);
  });

  test("the run id is the run's spec file, else the runner process; the same in every worker", () => {
    expect(currentRunId({ CONTRACT_RUN_DIR: '/tmp/contract-suite-run-1' })).toBe('/tmp/contract-suite-run-1/spec.json');
    const fallback = currentRunId({});
    expect(fallback).toContain(String(process.ppid));
    expect(currentRunId({ CONTRACT_RUN_DIR: '' })).toBe(fallback);
  });

  test('an unreadable check stops the run before anything is changed', async () => {
    const t = fakeTarget();
    const file = join(dir, 'snap.json');
    await expect(takeSnapshot({ ...options(t.send, file), id: 'missing' })).rejects.toThrow(/could not be read.*404/);
    expect(t.log.every((l) => l.startsWith('GET'))).toBe(true);
  });
});
