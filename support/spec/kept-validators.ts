/** Compiled validators kept between runs as ajv's standalone code, keyed by the spec and the code that compiles it (a warm worker loads no ajv). */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { KEPT_ROOT, keptKey, pruneKept, writeWhole } from '../run/kept';

/** Specs whose validators are kept, more than the documents one self-test serves so that they do not evict each other. */
const KEPT_SPECS = 32;
/** What a kept file holds: a new format is a new key, so that no older file is read as this one. */
const KEPT_FORMAT = 1;
export const KEPT_VALIDATORS_DIR = join(KEPT_ROOT, 'validators');
/** Written for a schema ajv cannot compile, so that it is not tried again: SPEC-1 reports the spec. */
const UNCOMPILABLE = 'null';

// The generated code requires ajv's runtime helpers and ajv-formats' formats by package name.
const requireFromHere = createRequire(__filename);

/** The spec's text and the code that compiles it: schema-validator.ts, this file, and the versions of ajv and ajv-formats. */
const specKey = (raw: unknown): string =>
  keptKey(
    KEPT_FORMAT,
    [JSON.stringify(raw)],
    [join(__dirname, 'schema-validator.ts'), __filename, ...['ajv', 'ajv-formats'].map((p) => requireFromHere.resolve(`${p}/package.json`))],
  );

const fileOf = (dir: string, pointer: string) => join(dir, `${createHash('sha256').update(pointer).digest('hex').slice(0, 32)}.cjs`);

export type KeptValidators = ReturnType<typeof keptValidators>;

export function keptValidators(raw: unknown, root = KEPT_VALIDATORS_DIR) {
  const dir = join(root, specKey(raw));
  try {
    const now = new Date();
    utimesSync(dir, now, now); // used: not the first to go when others are pruned
  } catch {
    /* not kept yet */
  }
  let made = false;
  return {
    /** The kept validator of the schema at `pointer`; null when it could not be compiled; undefined when none is kept. */
    load(pointer: string): ValidateFunction | null | undefined {
      let code: string;
      try {
        code = readFileSync(fileOf(dir, pointer), 'utf8');
      } catch {
        return undefined;
      }
      if (code === UNCOMPILABLE) return null;
      const module = { exports: {} as { default?: ValidateFunction } };
      // The code ajv would have run through new Function itself, written out by this module.
      new Function('require', 'module', 'exports', code)(requireFromHere, module, module.exports);
      return module.exports.default ?? (module.exports as unknown as ValidateFunction);
    },
    /** Keeps standalone code (null: uncompilable) for later runs; a cache that cannot be written is skipped. */
    keep(pointer: string, code: string | null): void {
      try {
        if (!made) {
          const fresh = !existsSync(dir);
          mkdirSync(dir, { recursive: true });
          // The new folder is the newest: never the one pruned.
          if (fresh) pruneKept(root, KEPT_SPECS);
          made = true;
        }
        writeWhole(fileOf(dir, pointer), code ?? UNCOMPILABLE);
      } catch {
        /* a read-only checkout: compiled again next time */
      }
    },
  };
}
