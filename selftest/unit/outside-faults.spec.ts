// The faults applied from outside the reference service (selftest/faults/outside): each is one record,
// in one place. Its name is in the catalogue the service checks MOCK_FAULT against, its clauses are those
// the self-test expects it to break, and no branch of the service names it any more.
import { recordTests } from './outside-records';
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { OUTSIDE_FAULTS } from '../faults/outside';

const SERVICE = resolve(__dirname, '../../reference/service');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

const named = OUTSIDE_FAULTS.flatMap((f) => ('name' in f ? [f] : []));
const kinds = OUTSIDE_FAULTS.flatMap((f) => ('kind' in f ? [f] : []));

recordTests('outside faults', named, kinds);

test('outside faults: no source of the service names one of them', () => {
  const text = sources(SERVICE).map((f) => readFileSync(f, 'utf8'));
  for (const name of [...named.map((f) => f.name), ...kinds.map((k) => k.kind)])
    expect(
      text.some((t) => t.includes(`'${name}'`)),
      name,
    ).toBe(false);
});
