/**
 * Snapshot and restore of checks (CU-9) against an in-memory fake target: comparisons, the fallback to
 * a smaller restore body, and the snapshot file's life (written first, recovered, never overwritten for
 * another target).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  changedProperties, loadSnapshot, restoreBody, restoreCheck, restored, sameValue, saveSnapshot, SnapshotConflict,
  takeSnapshot, type CheckState, type Send,
} from '../../support/check-state';
import type { Exchange } from '../../support/exchange';

const WRITABLE = ['name', 'locations', 'description', 'frequency', 'frequencyOffset', 'checkType'];
const ORIGINAL: CheckState = { id: 'a', name: 'Original', locations: ['eu-west-1', 'us-east-1'], description: null, frequency: 10, frequencyOffset: 1, checkType: 'API', updated_at: 't0' };

/** A target holding checks by path; `refuseOver` rejects bodies with more properties than that. */
function fakeTarget(refuseOver = Infinity) {
  const checks = new Map<string, CheckState>([['/v1/checks/a', structuredClone(ORIGINAL)]]);
  const log: string[] = [];
  const reply = (status: number, json: unknown): Exchange => ({ method: '', url: '', requestHeaders: {}, status, headers: {}, text: JSON.stringify(json), json, contentType: 'application/json', ms: 0 });
  const send: Send = async (method, path, options) => {
    log.push(`${method} ${path}`);
    const check = checks.get(path);
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
  test('null and absent are the same; arrays of plain values are compared as collections', () => {
    expect(sameValue(null, undefined)).toBe(true);
    expect(sameValue({ a: null }, {})).toBe(true);
    expect(sameValue(['b', 'a'], ['a', 'b'])).toBe(true);
    expect(sameValue(['a', 'a'], ['a', 'b'])).toBe(false);
    expect(sameValue([1], ['1'])).toBe(false);
    expect(sameValue([{ k: 1 }, { k: 2 }], [{ k: 2 }, { k: 1 }])).toBe(false);
    expect(sameValue({ a: { b: [1, 2] } }, { a: { b: [2, 1] } })).toBe(true);
    expect(sameValue(0, null)).toBe(false);
    expect(sameValue('', null)).toBe(false);
  });

  test('only writable properties count as changes', () => {
    const after = { ...ORIGINAL, name: 'x', updated_at: 't9', locations: ['us-east-1', 'eu-west-1'] };
    expect(changedProperties(ORIGINAL, after, WRITABLE)).toEqual(['name']);
  });

  test('the restore body holds the snapshot\'s writable properties, or only the ones asked for', () => {
    expect(Object.keys(restoreBody(ORIGINAL, [...WRITABLE, 'tags']))).toEqual(WRITABLE);
    expect(restoreBody(ORIGINAL, WRITABLE, ['name'])).toEqual({ name: 'Original' });
  });
});

test.describe('restoring a check', () => {
  test('nothing changed: nothing is sent', async () => {
    const t = fakeTarget();
    const r = await restoreCheck(t.send, t.send, '/v1/checks/a', 'a', ORIGINAL, WRITABLE);
    expect(restored(r)).toBe(true);
    expect(r.changed).toEqual([]);
    expect(t.log).toEqual(['GET /v1/checks/a']);
  });

  test('changed properties are put back and verified by a read', async () => {
    const t = fakeTarget();
    Object.assign(t.checks.get('/v1/checks/a')!, { name: 'changed', frequency: 0, frequencyOffset: 10 });
    const r = await restoreCheck(t.send, t.send, '/v1/checks/a', 'a', ORIGINAL, WRITABLE);
    expect(r).toMatchObject({ changed: ['name', 'frequency', 'frequencyOffset'], remaining: [] });
    expect(restored(r)).toBe(true);
    expect(t.log).toEqual(['GET /v1/checks/a', 'PUT /v1/checks/a', 'GET /v1/checks/a']);
  });

  test('a refused full body falls back to the changed properties with their coupled ones', async () => {
    const t = fakeTarget(4);
    Object.assign(t.checks.get('/v1/checks/a')!, { name: 'changed' });
    const r = await restoreCheck(t.send, t.send, '/v1/checks/a', 'a', ORIGINAL, WRITABLE);
    expect(restored(r)).toBe(true);
    expect(r.steps).toEqual([`PUT ${WRITABLE.length} properties → 400`, 'PUT 4 properties → 200']);
  });

  test('a target that refuses every restore is reported, not hidden', async () => {
    const t = fakeTarget(0);
    Object.assign(t.checks.get('/v1/checks/a')!, { name: 'changed' });
    const r = await restoreCheck(t.send, t.send, '/v1/checks/a', 'a', ORIGINAL, WRITABLE);
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

  const options = (send: Send, file: string, baseUrl = 'https://staging.example') => ({
    file, baseUrl, embedded: false, ids: ['a'], pathOf: (id: string) => `/v1/checks/${id}`, send, writable: WRITABLE,
  });

  test('is written before the first update, with the state read', async () => {
    const t = fakeTarget();
    const file = join(dir, 'snap.json');
    const { snapshot, recovered } = await takeSnapshot(options(t.send, file));
    expect(recovered).toEqual([]);
    expect(loadSnapshot(file)).toEqual(snapshot);
    expect(snapshot.checks.a).toEqual(ORIGINAL);
  });

  test('left by an interrupted run against the same target: restored first and kept as the snapshot', async () => {
    const t = fakeTarget();
    const file = join(dir, 'snap.json');
    await takeSnapshot(options(t.send, file));
    Object.assign(t.checks.get('/v1/checks/a')!, { name: 'left over', frequency: 120, frequencyOffset: 2 });
    const { snapshot, recovered } = await takeSnapshot(options(t.send, file));
    expect(recovered.map(restored)).toEqual([true]);
    expect(snapshot.checks.a.name).toBe('Original');
    expect(t.checks.get('/v1/checks/a')!.name).toBe('Original');
  });

  test('of another real target: never overwritten', async () => {
    const t = fakeTarget();
    const file = join(dir, 'snap.json');
    saveSnapshot(file, { version: 1, baseUrl: 'https://prod.example', embedded: false, savedAt: 'x', checks: { z: {} } });
    await expect(takeSnapshot(options(t.send, file))).rejects.toBeInstanceOf(SnapshotConflict);
    expect(loadSnapshot(file)?.baseUrl).toBe('https://prod.example');
  });

  test('of an embedded service that is gone: replaced', async () => {
    const t = fakeTarget();
    const file = join(dir, 'snap.json');
    saveSnapshot(file, { version: 1, baseUrl: 'http://127.0.0.1:1', embedded: true, savedAt: 'x', checks: { z: {} } });
    const { snapshot } = await takeSnapshot(options(t.send, file));
    expect(Object.keys(snapshot.checks)).toEqual(['a']);
  });

  test('an unreadable check stops the run before anything is changed', async () => {
    const t = fakeTarget();
    const file = join(dir, 'snap.json');
    await expect(takeSnapshot({ ...options(t.send, file), ids: ['missing'] })).rejects.toThrow(/could not be read.*404/);
    expect(t.log.every((l) => l.startsWith('GET'))).toBe(true);
  });
});
