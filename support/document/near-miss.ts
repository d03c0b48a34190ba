/**
 * The near-miss operators, one catalogue for every rule: each turns a valid value into values a careless
 * implementation may still take (a space it trims, a fullwidth digit it folds). Operators only make
 * candidates; the rule's oracle decides what each must get. One whose result is the same on the wire is
 * declared with the reason and never sent.
 */

export interface NearMissOperator {
  /** What it does to a value, in a few words: the value class the checks are stamped with (`near-miss:<name>`). */
  name: string;
  /**
   * The candidates made from one valid value. `domain` is the list the value is one of (the other
   * valid values), for the operators that follow its pattern; empty where the value stands alone.
   */
  apply: (value: unknown, domain: readonly unknown[]) => unknown[];
  /** Set where the result cannot differ from the valid value on the wire: the reason; never sent. */
  sameOnWire?: string;
  /** Set where only a value in a URL path can be mistaken so (a router's habit): the reason; sent only there. */
  pathOnly?: string;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Applies a string operator to a string, or to the first string item of an array (the rest kept). */
function onText(f: (s: string) => string[]): (v: unknown) => unknown[] {
  return (v) => {
    const [s, rest] = isString(v) ? [v] : Array.isArray(v) && isString(v[0]) ? [v[0] as string, v.slice(1)] : [];
    if (s === undefined) return [];
    return f(s).flatMap((x) => (x === s ? [] : [rest ? [x, ...rest] : x]));
  };
}

/**
 * An id written in hexadecimal digits, whole or in parts (a GUID, a hex key, 2025.04): its zero keeps
 * its shape, the value an unset field of its type holds (Guid.Empty), which a service may read as "unset".
 */
const HEX_ID = /^(?=.*\d)[0-9a-f]+(?:[^\p{L}\p{N}][0-9a-f]+)*$/iu;

/** Runs of characters that are neither letters nor digits: what separates a value's parts. */
const SEPARATOR = /[^\p{L}\p{N}]+/gu;
/** In the order they are tried: the likeliest first. */
const SEPARATORS = ['_', ',', '-', '.', '/', ' ', ':', ''];

/** The middle of a string: after its first separator, else half way. */
function middle(s: string): number {
  const m = /[^\p{L}\p{N}]/u.exec(s);
  return m ? m.index + 1 : Math.floor(s.length / 2);
}
const insertAt = (s: string, i: number, x: string) => s.slice(0, i) + x + s.slice(i);

/** The next character of the same class (a hex digit within a hexadecimal id, a digit, a letter of the same case), wrapping round. */
function nextOfClass(c: string, hex: boolean): string {
  const classes = hex ? ['0123456789abcdef', '0123456789ABCDEF'] : ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
  const cls = classes.find((k) => k.includes(c));
  return cls ? cls[(cls.indexOf(c) + 1) % cls.length] : c;
}

/**
 * A structured value (a GUID, a key, a version, a location) with one of its parts changed and the rest
 * kept, once per part: the first character of the part moved to the next of its class. A service that
 * compares or parses only some parts (a key's prefix, a GUID's first group, a version's year) takes one.
 */
function eachPartChanged(s: string): string[] {
  const hex = HEX_ID.test(s);
  const parts = [...s.matchAll(/[\p{L}\p{N}]+/gu)];
  if (parts.length < 2) return [];
  return parts.map((m) => s.slice(0, m.index) + nextOfClass(s[m.index!], hex) + s.slice(m.index! + 1)).filter((x) => x !== s);
}

const FULLWIDTH_OFFSET = 0xfee0;
const fullwidth = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + FULLWIDTH_OFFSET));
/** Letters of other scripts that look like Latin ones (Cyrillic), and letters that look like digits (O for 0, l for 1): each character of the first string by the same of the second. */
const LOOK_ALIKE: Readonly<Record<string, string>> = Object.fromEntries([...'acepsxyioABEPTO01'].map((c, i) => [c, [...'асерѕхуіоАВЕРТОOl'][i]]));
/** Digits of other scripts: a parser's \d or int() may take them (Python's does). */
const OTHER_DIGITS = [0x0660, 0x0966]; // Arabic-Indic, Devanagari

/** The step of an evenly spaced list of numbers (10 for 10, 20, 30), if it is one. */
function stepOf(domain: readonly unknown[]): number | undefined {
  const nums = [...new Set(domain.filter(isNumber))].sort((a, b) => a - b);
  if (nums.length < 2) return undefined;
  const step = nums[1] - nums[0];
  return nums.every((n, i) => i === 0 || n - nums[i - 1] === step) ? step : undefined;
}

/** A year.month id (2026.04) moved by some months, written the same way. */
function monthMoved(s: string, by: number): string | undefined {
  const m = /^(\d{4})([^\d])(\d{2})$/.exec(s);
  if (!m) return undefined;
  const total = Number(m[1]) * 12 + Number(m[3]) - 1 + by;
  return `${Math.floor(total / 12)}${m[2]}${String((total % 12) + 1).padStart(2, '0')}`;
}

/** The next (or previous) members of a value's pattern: numbers by the step of its list, ids by month. */
function sequence(direction: 1 | -1): (v: unknown, domain: readonly unknown[]) => unknown[] {
  return (v, domain) => {
    if (isNumber(v)) {
      const step = stepOf(domain) ?? 1;
      const nums = domain.filter(isNumber);
      const edge = nums.length ? (direction === 1 ? Math.max(...nums) : Math.min(...nums)) : v;
      return [1, 2, 3].map((k) => edge + direction * k * step);
    }
    if (isString(v)) return [1, 12].map((k) => monthMoved(v, direction * k)).filter(isString);
    return [];
  };
}

export const NEAR_MISS_OPERATORS: readonly NearMissOperator[] = [
  { name: 'trailing-space', apply: onText((s) => [`${s} `]) },
  { name: 'leading-space', apply: onText((s) => [` ${s}`]) },
  { name: 'inner-space', apply: onText((s) => (s.length > 1 ? [insertAt(s, middle(s), ' ')] : [])) },
  { name: 'other-whitespace', apply: onText((s) => [`\t${s}`, `${s}\n`, `${s}\u00a0`]) },
  {
    name: 'other-separator',
    apply: onText((s) => {
      const seps = new Set(s.match(SEPARATOR) ?? []);
      return [...seps].flatMap((sep) => SEPARATORS.filter((o) => o !== sep).map((o) => s.split(sep).join(o)));
    }),
  },
  { name: 'case', apply: onText((s) => [s.toUpperCase(), s.toLowerCase(), s.charAt(0).toUpperCase() + s.slice(1).toLowerCase()]) },
  // Unicode compatibility forms: NFKC folds them back.
  { name: 'fullwidth', apply: onText((s) => [fullwidth(s)]) },
  { name: 'decomposed', apply: onText((s) => [s.normalize('NFD')]) },
  { name: 'zero-width', apply: onText((s) => [insertAt(s, middle(s), '\u200b'), `\ufeff${s}`]) },
  {
    name: 'look-alike',
    apply: onText((s) => {
      const chars = [...s];
      const i = chars.findIndex((c) => c in LOOK_ALIKE);
      if (i < 0) return [];
      chars[i] = LOOK_ALIKE[chars[i]];
      return [chars.join('')];
    }),
  },
  {
    name: 'other-digits',
    apply: onText((s) => (/\d/.test(s) ? OTHER_DIGITS.map((zero) => s.replace(/\d/g, (d) => String.fromCodePoint(zero + Number(d)))) : [])),
  },
  { name: 'prefixed', apply: onText((s) => [`v${s}`, `0${s}`]) },
  { name: 'suffixed', apply: onText((s) => [`${s}x`, `${s}.0`, `${s}${s}`]) },
  { name: 'sign-flip', apply: (v) => (isNumber(v) && v !== 0 ? [-v] : []) },
  { name: 'next-in-pattern', apply: sequence(1) },
  { name: 'previous-in-pattern', apply: sequence(-1) },
  { name: 'off-by-one', apply: (v) => (isNumber(v) ? [v + 1, v - 1] : []) },
  { name: 'multiple', apply: (v) => (isNumber(v) && v !== 0 ? [v * 2, v * 10] : []) },
  { name: 'fraction', apply: (v) => (isNumber(v) ? [v / 2, v / 10, v + 0.5].filter((x) => x !== v) : []) },
  {
    name: 'numeric-string',
    apply: (v) => (isNumber(v) ? [String(v)] : isString(v) && v.trim() !== '' && Number.isFinite(Number(v)) ? [Number(v)] : []),
  },
  { name: 'boolean', apply: () => [true, 'true'] },
  { name: 'null', apply: () => [null] },
  { name: 'empty', apply: (v) => (isString(v) ? [''] : Array.isArray(v) ? [[]] : typeof v === 'object' && v ? [{}] : ['']) },
  // An array: its first item alone, and nested.
  { name: 'in-array', apply: (v) => (Array.isArray(v) ? [v[0], [v]] : [[v]]) },
  { name: 'in-object', apply: (v) => [{ value: v }] },
  // Last of the sent operators, so that adding it moved no other operator's choice (case-choice.ts rotates by position).
  // 0, and an id of hexadecimal digits with every digit 0 (the nil GUID 00000000-0000-…).
  { name: 'zero', apply: (v) => (isNumber(v) ? (v === 0 ? [] : [0]) : onText((s) => (HEX_ID.test(s) ? [s.replace(/[0-9a-f]/gi, '0')] : []))(v)) },
  {
    name: 'format-suffix',
    apply: onText((s) => [`${s}.json`]),
    pathOnly: 'routers that match a path with or without a format suffix strip it before the lookup; in a header or a body it is one more suffix',
  },
  {
    name: 'number-written-otherwise',
    apply: (v) => (isNumber(v) ? [v] : []),
    sameOnWire: 'JSON numbers have one value whatever their spelling (10, 10.0, 1e1): no parser can tell them apart, and our client writes the shortest form',
  },
  {
    name: 'percent-encoded-unreserved',
    apply: onText((s) => [s]),
    sameOnWire: 'RFC 3986 section 2.3: a percent-encoded unreserved character is equivalent to the character; a target may decode it before routing',
  },
  // After the others, so that adding it moved no other operator's choice (case-choice.ts rotates by position).
  { name: 'one-part-changed', apply: onText(eachPartChanged) },
  // A separator one character later (2025.04 as 20250.4, a GUID's first hyphen moved): the parts' lengths are wrong, the characters right.
  {
    name: 'separator-moved',
    apply: onText((s) =>
      /^[\p{L}\p{N}]+[^\p{L}\p{N}][\p{L}\p{N}]{2}/u.test(s) ? [s.replace(/^([\p{L}\p{N}]+)([^\p{L}\p{N}])([\p{L}\p{N}])/u, '$1$3$2')] : [],
    ),
  },
  // Path habits, last so that adding them moved no other operator's choice (case-choice.ts rotates by position).
  // The value as one segment of a longer path: a handler that takes the last segment (a basename), strips a
  // trailing slash or resolves `..` finds the valid value in it.
  {
    name: 'in-longer-path',
    apply: onText((s) => [`${s}/`, `x/${s}`, `x/../${s}`]),
    pathOnly:
      'a path segment holds no "/" but encoded, which only a handler that splits or normalises the decoded path sees; in a header or a body it is one more prefix',
  },
  // Encoded once more than the path encodes it: a handler that decodes what its router decoded already reads
  // "%2E" as a dot, and meets a lone "%" it cannot decode.
  {
    name: 'decoded-twice',
    apply: onText((s) => [
      s.replace(/[^\p{L}\p{N}]/u, (c) => [...Buffer.from(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')),
      `${s}%`,
    ]),
    pathOnly: 'only a value that is decoded from a URL can be decoded once too often; in a header or a body "%" is a character like any other',
  },
];

/** The operators whose results are sent in headers and bodies. */
export const SENT_OPERATORS = NEAR_MISS_OPERATORS.filter((o) => !o.sameOnWire && !o.pathOnly);
/** The operators whose results are sent as a path segment. */
export const PATH_OPERATORS = NEAR_MISS_OPERATORS.filter((o) => !o.sameOnWire);
