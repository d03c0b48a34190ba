/**
 * Validates bodies against the target's own schemas with ajv: the raw document added whole (so `$ref`s resolve as written), OpenAPI 3.0's
 * `nullable` and boolean exclusive bounds translated first, each schema compiled on first use. Compiled validators are kept between runs
 * as ajv's standalone code, keyed by the spec and the code that compiles it: a warm worker loads no ajv.
 */
import { createHash } from 'node:crypto';
import { readFileSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { default as Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Spec } from './spec';
import { KEPT_ROOT, keepFile, keptKey } from '../run/kept';

/** What a kept file holds: a new format is a new key, so that no older file is read as this one. */
const KEPT_FORMAT = 1;
const KEPT_VALIDATORS_DIR = join(KEPT_ROOT, 'validators');
/** Written for a schema ajv cannot compile, so that it is not tried again: SPEC-1 reports the spec. */
const UNCOMPILABLE = 'null';
// The generated code requires ajv's runtime helpers and ajv-formats' formats by package name.
const requireFromHere = createRequire(__filename);

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export function translateOpenApi30(node: Json, memo = new WeakMap<object, Json>()): Json {
  if (Array.isArray(node)) return node.map((n) => translateOpenApi30(n, memo));
  if (!node || typeof node !== 'object') return node;
  if (memo.has(node)) return memo.get(node);
  const out: Json = {};
  memo.set(node, out);
  for (const [k, v] of Object.entries<Json>(node)) out[k] = translateOpenApi30(v, memo);
  // OpenAPI 3.0's boolean exclusive bounds become the numbers JSON Schema expects.
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ]) {
    if (typeof out[exclusive] !== 'boolean') continue;
    if (out[exclusive] && typeof out[bound] === 'number') {
      out[exclusive] = out[bound];
      delete out[bound];
    } else delete out[exclusive];
  }
  if (out.nullable === true) {
    delete out.nullable;
    // anyOf keeps every sibling keyword (enum, $ref, allOf...) applying to the non-null branch only.
    const inner = { ...out };
    for (const k of Object.keys(out)) delete out[k];
    out.anyOf = [inner, { type: 'null' }];
  } else if (out.nullable === false) {
    delete out.nullable;
  }
  return out;
}

/** The ajv options: a change here is a change of schema-validator.ts, so kept validators are compiled anew. */
const AJV_OPTIONS = { strict: false, allErrors: true, logger: false, validateSchema: false, validateFormats: true } as const;

export class SchemaValidator {
  private ajvInstance?: Ajv;
  private readonly cache = new Map<string, ValidateFunction | null>();
  /** This spec's folder of kept validators (keyed by the spec, this file, and the versions of ajv and ajv-formats); unset: none kept. */
  private readonly keptDir?: string;

  /** `keptRoot`: where compiled validators are kept between runs; false keeps none. */
  constructor(
    private readonly spec: Spec,
    keptRoot: string | false = KEPT_VALIDATORS_DIR,
  ) {
    if (keptRoot === false) return;
    const code = [__filename, ...['ajv', 'ajv-formats'].map((p) => requireFromHere.resolve(`${p}/package.json`))];
    this.keptDir = join(keptRoot, keptKey(KEPT_FORMAT, [JSON.stringify(spec.raw)], code));
    try {
      const now = new Date();
      utimesSync(this.keptDir, now, now); // used: not the first to go when others are pruned
    } catch {
      /* not kept yet */
    }
  }

  /**
   * Problems of `body` against the schema at `pointer` in the raw document, [] when it conforms: where (a JSON pointer into the body, '/' for
   * the root), what failed and why, and which rule of the schema (ajv's schemaPath: the same for every item of an array).
   */
  validate(pointer: string, body: unknown) {
    const validate = this.compile(pointer);
    if (!validate || validate(body)) return [];
    return dedupe(validate.errors ?? []).map((e) => ({ path: e.instancePath || '/', message: describe(e), rule: e.schemaPath }));
  }

  /** The kept validator of the schema at `pointer`, else compiled now and kept; null when it cannot be compiled (SPEC-1 reports the spec). */
  private compile(pointer: string): ValidateFunction | null {
    if (this.cache.has(pointer)) return this.cache.get(pointer)!;
    const file = this.keptDir && join(this.keptDir, `${createHash('sha256').update(pointer).digest('hex').slice(0, 32)}.cjs`);
    // Among the most recent specs' folders (keepFile prunes the oldest).
    const keep = (code: string) => keepFile(dirname(this.keptDir!), file!, code);
    let validate: ValidateFunction | null = null;
    try {
      const code = readFileSync(file || '', 'utf8');
      const module = { exports: {} as { default?: ValidateFunction } };
      // The code ajv would have run through new Function itself, written out below.
      if (code !== UNCOMPILABLE) {
        new Function('require', 'module', 'exports', code)(requireFromHere, module, module.exports);
        validate = module.exports.default ?? (module.exports as unknown as ValidateFunction);
      }
    } catch {
      try {
        validate = this.ajv.compile({ $ref: `spec#${pointer}` });
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        if (file) keep((require('ajv/dist/standalone') as typeof import('ajv/dist/standalone')).default(this.ajv, validate));
      } catch {
        // Uncompilable (SPEC-1 reports the spec), or not expressible as standalone code (compiled again next time).
        if (!validate && file) keep(UNCOMPILABLE);
      }
    }
    this.cache.set(pointer, validate);
    return validate;
  }

  /** Loaded on the first schema no kept validator has, not on import: a warm run validates without ajv. */
  private get ajv(): Ajv {
    if (this.ajvInstance) return this.ajvInstance;
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { default: AjvClass, _ } = require('ajv') as typeof import('ajv');
    const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');
    /* eslint-enable @typescript-eslint/no-require-imports */
    // Standalone code names the formats it checks by package path, which compile() resolves with requireFromHere.
    const ajv = new AjvClass({ ...AJV_OPTIONS, code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } });
    addFormats(ajv);
    // Formats real specs use that ajv-formats lacks: accept, don't fail the schema.
    for (const f of ['guid', 'int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) {
      if (!ajv.formats[f]) ajv.addFormat(f, true);
    }
    ajv.addSchema(translateOpenApi30(this.spec.raw), 'spec');
    return (this.ajvInstance = ajv);
  }
}

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'enum') return `must be one of ${JSON.stringify(p.allowedValues)}`;
  if (e.keyword === 'required') return `must have property "${p.missingProperty}"`;
  if (e.keyword === 'additionalProperties') return `must not have property "${p.additionalProperty}"`;
  return `${e.message ?? e.keyword}`;
}

/** anyOf branches produce one error each; keep the most telling ones, at most eight. */
function dedupe(errors: ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  const telling = (e: ErrorObject) =>
    !(e.keyword === 'anyOf' && errors.length > 1) &&
    // the null branch of a translated `nullable` says "must be null": noise when the other branch spoke
    !(
      e.keyword === 'type' &&
      (e.params as { type?: string }).type === 'null' &&
      errors.some((o) => o !== e && o.instancePath === e.instancePath && o.keyword !== 'anyOf')
    );
  return errors.filter((e) => telling(e) && !seen.has(`${e.instancePath}|${describe(e)}`) && seen.add(`${e.instancePath}|${describe(e)}`)).slice(0, 8);
}
