/**
 * The tests of the check update family, in the order they run; cells.ts turns each into the cells it
 * sends, and the self-test turns the same cells into faults of the reference service. Failures name the
 * place 'check-update' ('check-read' for a read-back), the valueClass `<check>:<role>:<class>` (e.g.
 * 'api:locations:upper-case', 'browser:round:2', 'api:refused:not-json') and the cell, its value shown.
 */
import type { ClauseId } from '../document/clauses';
import { SUB_MINUTE_OFFSETS } from '../document/facts';
import type { BodyRole } from './vocabulary';
import { VALUE_RULES } from './value-rules';

export type CheckKind = 'api' | 'browser';
export const CHECK_KINDS: readonly CheckKind[] = ['api', 'browser'];

/** The type each configured check is expected to have (the check's own type, as read, decides). */
export const EXPECTED_TYPE: Readonly<Record<CheckKind, string>> = { api: 'API', browser: 'BROWSER' };

const OFFSET: BodyRole[] = ['frequency', 'frequencyOffset'];

export type UpdateTestKey = 'valid' | 'query' | 'CU-2' | 'CU-3' | 'CU-4' | 'CU-5' | 'CU-6' | 'FO-zero' | 'FO-low' | 'FO-high' | 'FO-4' | 'FO-combined';

export interface UpdateTest {
  key: UpdateTestKey;
  title: string;
  clauses: ClauseId[];
  places: readonly CheckKind[];
  /** The body properties (by meaning) its cells send: a target whose body lacks one skips the test. */
  roles: BodyRole[];
  /** The property whose schema in the target's spec it compares with the document (notes, never failures). */
  compares?: BodyRole;
}

/** A frequencyOffset test: on both checks, its cells send frequency and offset (unless it says otherwise). */
const offsetTest = (key: UpdateTestKey, title: string, clauses: ClauseId[], also: Partial<UpdateTest> = {}): UpdateTest => ({
  key,
  title,
  clauses,
  places: CHECK_KINDS,
  roles: OFFSET,
  ...also,
});

/** The values a target may take or refuse come before the rounds, so that the run leaves what the rounds chose (the newest runtime) for the final restore. */
export const UPDATE_TESTS: UpdateTest[] = [
  { key: 'query', title: 'the auto-subscribe query parameter is accepted as true and as false', clauses: ['CU-1'], places: ['api'], roles: ['name'] },
  ...VALUE_RULES.filter((r) => r.test).map((r): UpdateTest => ({
    key: r.clause as UpdateTestKey,
    title: `${r.role}: ${r.test!.rejects}`,
    clauses: [r.clause, 'CU-7', ...(r.test!.alsoDeclares ?? [])],
    places: CHECK_KINDS,
    roles: [r.role],
    compares: r.role,
  })),
  {
    key: 'valid',
    title: 'every valid value of every rule is accepted and reads back (one value per property in each body)',
    clauses: ['CU-1', 'CU-2', 'CU-3', 'CU-4', 'CU-5', 'CU-6', 'FO-1', 'FO-2', 'FO-3'],
    places: CHECK_KINDS,
    roles: ['name', 'description', 'groupOrder', 'locations', 'runtimeId', 'checkType', ...OFFSET],
    compares: 'name',
  },
  offsetTest('FO-zero', `frequency 0: an offset other than ${SUB_MINUTE_OFFSETS.join(', ')} rejected; on a browser check every offset rejected`, [
    'FO-1',
    'FO-4',
    'FO-5',
    'CU-7',
  ]),
  offsetTest('FO-low', 'frequencies 1 to 60: offsets 0 and floor(f * 10) + 1 rejected', ['FO-2', 'FO-4', 'CU-7']),
  offsetTest('FO-high', 'frequencies above 60: offsets 0 and ceil(f / 60) + 1 rejected', ['FO-3', 'FO-4', 'CU-7']),
  offsetTest('FO-4', 'frequencyOffset that is not an integer >= 1 rejected', ['FO-4', 'CU-7'], { compares: 'frequencyOffset' }),
  offsetTest('FO-combined', 'frequency, offset and type sent alone are judged with the stored values', ['FO-1', 'FO-2', 'FO-3', 'FO-5', 'CU-7', 'CU-1'], {
    roles: ['checkType', ...OFFSET],
  }),
];
