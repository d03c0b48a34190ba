/**
 * What a read after a batch of updates says about each update (attribution.ts), and the atomicity
 * carriers a refused body takes along (carriers.ts): which update leaked, which value did not persist,
 * when the values read cannot tell (the batch is replayed), and what is nobody's doing.
 */
import { expect, test } from '@playwright/test';
import { attribute, expectedAfter, type SentUpdate } from '../../support/check-update/attribution';
import { carriersFor, flipFirstBoolean, planCarriers } from '../../support/check-update/carriers';
import { PUBLISHED_NAMES } from '../../support/check-update/vocabulary';
import type { SpecOperation } from '../../support/spec/spec';

const START = { name: 'Original', muted: false, tags: ['a'], description: null, frequency: 10, frequencyOffset: 1 };
const WRITABLE = Object.keys(START);
const refused = (body: Record<string, unknown>): SentUpdate => ({ body, accepted: false });
const accepted = (body: Record<string, unknown>, readsBackAs?: Record<string, unknown[]>): SentUpdate => ({ body, accepted: true, readsBackAs });

test.describe('a read after a batch', () => {
  test('as expected: the accepted bodies applied in order, the refused ones not; nothing to say', () => {
    const sent = [accepted({ description: 'x' }), refused({ name: 'p1', frequencyOffset: 101 }), accepted({ frequencyOffset: 100 })];
    const read = { ...START, description: 'x', frequencyOffset: 100 };
    expect(expectedAfter(START, sent)).toEqual(read);
    expect(attribute(START, read, sent, WRITABLE)).toEqual([]);
  });

  test('a refused body whose unique value the read shows: that one leaked (CU-7)', () => {
    const sent = [refused({ name: 'p1', description: 'd'.repeat(501) }), refused({ name: 'p2', description: 5 })];
    expect(attribute(START, { ...START, name: 'p1' }, sent, WRITABLE)).toEqual([
      { kind: 'leak', property: 'name', updates: [0], before: 'Original', read: 'p1' },
    ]);
  });

  test('several refused bodies sent the value read (a flipped flag): ambiguous, to be replayed', () => {
    const sent = [refused({ muted: true, description: 5 }), refused({ muted: true, description: true })];
    expect(attribute(START, { ...START, muted: true }, sent, WRITABLE)).toEqual([
      { kind: 'leak', property: 'muted', updates: [0, 1], before: false, read: true },
    ]);
  });

  test('an accepted value that does not read back: not persisted (CU-1), blamed on the last body that sent it', () => {
    const sent = [accepted({ description: 'a' }), accepted({ description: 'b' })];
    expect(attribute(START, { ...START, description: 'a' }, sent, WRITABLE)).toEqual([
      { kind: 'not-persisted', property: 'description', updates: [1], before: 'b', read: 'a' },
    ]);
  });

  test('a value read back in a form that means the same (an empty description as null) is no finding', () => {
    const sent = [accepted({ description: '' }, { description: ['', null] })];
    expect(attribute(START, { ...START, description: null }, sent, WRITABLE)).toEqual([]);
  });

  test('a leak overwritten by a later accepted body is not blamed on anyone', () => {
    const sent = [refused({ name: 'p1' }), accepted({ name: 'valid' })];
    expect(attribute(START, { ...START, name: 'valid' }, sent, WRITABLE)).toEqual([]);
  });

  test("a change nobody sent: the target's doing after a valid update (a note), a refused body's when there was none", () => {
    expect(attribute(START, { ...START, description: 'x', tags: ['a', 'b'] }, [accepted({ description: 'x' })], WRITABLE).map((f) => f.kind)).toEqual([
      'derived',
    ]);
    expect(attribute(START, { ...START, tags: ['a', 'b'] }, [refused({ description: 5 })], WRITABLE)).toEqual([
      { kind: 'leak', property: 'tags', updates: [0], before: ['a'], read: ['a', 'b'] },
    ]);
    expect(attribute(START, { ...START, tags: [] }, [refused({ description: 5 }), refused({ description: true })], WRITABLE)[0]).toMatchObject({
      kind: 'leak',
      updates: [0, 1],
    });
  });

  test('an invalid body the target took (already failed on its own clause): what it stored is no further finding', () => {
    const sent: SentUpdate[] = [{ body: { groupOrder: -1, name: 'p1' }, accepted: true, wronglyAccepted: true }];
    expect(attribute(START, { ...START, name: 'p1' }, sent, [...WRITABLE, 'groupOrder'])).toEqual([
      { kind: 'derived', property: 'groupOrder', updates: [], before: -1, read: undefined },
    ]);
  });

  test('arrays are compared as multisets: another order is the same value', () => {
    expect(attribute(START, { ...START, tags: ['b', 'a'] }, [accepted({ tags: ['a', 'b'] })], WRITABLE)).toEqual([]);
  });
});

test.describe('atomicity carriers', () => {
  const op = (properties: Record<string, unknown>) =>
    ({ op: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties } } } } } }) as unknown as SpecOperation;
  const REFERENCE_LIKE = op({
    name: { type: 'string' },
    activated: { type: 'boolean' },
    muted: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    retryStrategy: { anyOf: [{ type: 'object', properties: { sameRegion: { type: 'boolean' } } }, { type: 'null' }] },
    alertSettings: { type: 'object' },
  });
  const STATE = { name: 'Original', muted: false, activated: true, tags: ['demo'], retryStrategy: { type: 'FIXED', sameRegion: true } };

  test('one property of each kind: a name, a flag (the least harmful), an array and a nested object', () => {
    expect(planCarriers(REFERENCE_LIKE, { ...PUBLISHED_NAMES })).toEqual({ name: 'name', boolean: 'muted', array: 'tags', object: 'retryStrategy' });
  });

  test("each a valid change from the state now; the name and the tag unique to the cell; the cell's own properties left alone", () => {
    const plan = planCarriers(REFERENCE_LIKE, { ...PUBLISHED_NAMES });
    const c = carriersFor(plan, STATE, 'tok1', []);
    expect(c).toEqual({
      name: 'contract-suite probe tok1',
      muted: true,
      tags: ['demo', 'contract-suite-tok1'],
      retryStrategy: { type: 'FIXED', sameRegion: false },
    });
    expect(carriersFor(plan, STATE, 'tok2', ['tags', 'name'])).toEqual({ muted: true, retryStrategy: { type: 'FIXED', sameRegion: false } });
  });

  test('a nested object is changed only where a flag inside it shows a valid other value; none, no object carrier', () => {
    expect(flipFirstBoolean({ a: { b: { c: false } }, d: true })).toEqual({ a: { b: { c: true } }, d: true });
    expect(flipFirstBoolean({ type: 'FIXED', n: 1 })).toBeUndefined();
    expect(flipFirstBoolean(null)).toBeUndefined();
    const plan = planCarriers(REFERENCE_LIKE, { ...PUBLISHED_NAMES });
    expect(carriersFor(plan, { ...STATE, retryStrategy: null }, 't', [])).not.toHaveProperty('retryStrategy');
  });

  test('a body schema without such properties gets the carriers it can take', () => {
    expect(planCarriers(op({ title: { type: 'string' } }), { ...PUBLISHED_NAMES, name: 'title' })).toEqual({ name: 'title' });
  });
});
