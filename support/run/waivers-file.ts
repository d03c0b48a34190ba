/**
 * The waiver file (WAIVERS_FILE, else contract-waivers.yaml): read and checked whole before any test, since a waiver that cannot be
 * understood must never quietly cover more or less than meant.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isClauseId } from '../document/clauses';
import type { Waiver } from '../checks/waivers';
import { SuiteError } from './suite-error';
import { unreadableFile } from './path-checks';

const DEFAULT_WAIVERS_FILE = 'contract-waivers.yaml';
/** The value of WAIVERS_FILE that reads no file, not even the default one (the self-test's runs). */
export const WAIVERS_OFF = 'off';
const PROJECT_ROOT = join(__dirname, '../..');

const FIELDS = ['clause', 'place', 'valueClass', 'reason', 'until'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Loaded only to read a waiver file: loading it costs every worker some 50-80 ms. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parseYaml = (text: string): unknown => (require('yaml') as typeof import('yaml')).parse(text);

interface WaiversRead {
  /** Every waiver of the waiver file, expired ones too (they cover nothing, but are reported); see support/checks/waivers.ts. */
  waivers: Waiver[];
  /** The file as named in every line about it; unset when none was read. */
  waiversFile?: string;
}

/** `setting`: WAIVERS_FILE as given (a path relative to the working directory, or `off`). */
export function readWaiversFile(setting: string | undefined, root = PROJECT_ROOT): WaiversRead {
  if (setting === WAIVERS_OFF) return { waivers: [] };
  const file = setting ?? DEFAULT_WAIVERS_FILE;
  const path = setting ? resolve(setting) : join(root, DEFAULT_WAIVERS_FILE);
  if (!setting && !existsSync(path)) return { waivers: [] };
  const unreadable = unreadableFile(path);
  if (unreadable) throw new SuiteError('config', `WAIVERS_FILE ${file}: ${unreadable}`);
  return { waiversFile: file, waivers: parseWaivers(readFileSync(path, 'utf8'), file) };
}

export function parseWaivers(text: string, file: string): Waiver[] {
  const fail = (what: string): never => {
    throw new SuiteError('config', `WAIVERS_FILE ${file}: ${what}`);
  };
  let data: unknown;
  try {
    data = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    fail(
      `does not parse: ${String((e as Error).message)
        .split('\n')[0]
        .replace(/:$/, '')}`,
    );
  }
  if (data === null || data === undefined) return [];
  if (!Array.isArray(data)) return fail('must be a list of waivers (clause, reason, until; place and valueClass optional)');
  return data.map((item: unknown, i) => {
    const entry = i + 1;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return fail(`entry ${entry}: must be a mapping of clause, reason, until`);
    const o = item as Record<string, unknown>;
    const bad = (what: string): never => fail(`entry ${entry}${typeof o.clause === 'string' ? ` (clause "${o.clause}")` : ''}: ${what}`);
    const unknown = Object.keys(o).find((k) => !FIELDS.includes(k));
    // A misspelt narrowing (`valueclass`) would widen the waiver to the whole clause.
    if (unknown) bad(`unknown field "${unknown}" (known: ${FIELDS.join(', ')})`);
    if (o.clause === undefined) bad('lacks a clause');
    if (typeof o.clause !== 'string' || !isClauseId(o.clause)) return bad('unknown clause');
    for (const k of ['place', 'valueClass'] as const)
      if (o[k] !== undefined && (typeof o[k] !== 'string' || !o[k].trim())) bad(`${k} must be a non-empty text`);
    if (o.reason === undefined || (typeof o.reason === 'string' && !o.reason.trim())) bad('lacks a reason');
    if (typeof o.reason !== 'string') return bad('reason must be a text');
    if (o.until === undefined) bad('lacks a date (until: YYYY-MM-DD)');
    if (typeof o.until !== 'string' || !isDay(o.until)) return bad(`until must be a date YYYY-MM-DD (got ${JSON.stringify(o.until)})`);
    return {
      entry,
      clause: o.clause,
      ...(o.place ? { place: o.place as string } : {}),
      ...(o.valueClass ? { valueClass: o.valueClass as string } : {}),
      reason: o.reason.trim(),
      until: o.until,
    };
  });
}

/** A real calendar day: 2025-02-30 is read as 2025-03-02, and is not one. */
function isDay(text: string): boolean {
  const d = new Date(`${text}T00:00:00Z`);
  return DAY.test(text) && !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}
