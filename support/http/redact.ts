/**
 * Secrets never reach a report or the console: every text shown passes through `redact`. A registered secret is found by its value,
 * whatever its length: in any case (the probes send a GUID upper-cased, a key with its case swapped), percent-encoded, escaped for JSON
 * or HTML, and in base64 (inside any base64 text). What a target may echo of a long secret is caught too: a run of SECRET_RUN of its
 * characters (a key with one character changed).
 */
const secrets = new Set<string>();
/** The secrets' values, their encodings and their runs, matched without regard to case. */
let textPattern: RegExp | undefined;
/** Their base64 forms: base64 is case-sensitive, and case-blind it would match far more than the secret. */
let base64Pattern: RegExp | undefined;
/** The forms (lower case) that are a whole secret, as given or encoded: replaced exactly, so that `api_key=` before one stays. */
let wholeForms = new Set<string>();

export const REDACTED = '«redacted»';

/** A shared run of this many characters counts as the secret. */
export const SECRET_RUN = 12;

/** Asked of every error body (AUTH-7), for the few secrets of a run: made once each. */
const echoFormsOf = new Map<string, string[]>();

/** The secret, its base64 forms, and every run of SECRET_RUN of its characters: what an error body must not echo (AUTH-7). */
function echoForms(secret: string): string[] {
  const known = echoFormsOf.get(secret);
  if (known) return known;
  const forms = new Set([secret, ...[secret, `${secret}:`, `:${secret}`].map((s) => Buffer.from(s).toString('base64').replace(/=+$/, ''))]);
  for (let i = 0; i + SECRET_RUN <= secret.length; i++) forms.add(secret.slice(i, i + SECRET_RUN));
  const made = [...forms];
  echoFormsOf.set(secret, made);
  return made;
}

/** Whether `text` holds the secret or anything recognisably derived from it. */
export function containsSecret(text: string, secret: string): boolean {
  return echoForms(secret).some((f) => text.includes(f));
}

export const swapCase = (s: string) => [...s].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
const everyByte = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The whole secret as each layer writes it; the case of letters (and of percent-encoding's hex) is left to the matching. */
function wholeFormsOf(secret: string): string[] {
  return [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), html(secret), ...caseVariants(secret).map(everyByte)];
}

const caseVariants = (s: string) => [...new Set([s, s.toUpperCase(), s.toLowerCase(), swapCase(s)])];

/** Shorter base64 runs would match ordinary base64 text by chance. */
const MIN_BASE64_RUN = 4;

/**
 * The characters of base64 that encode the secret alone, at each of the three byte offsets it may start at inside longer text
 * (`Basic base64(key:)`, base64 of `user:key`), in base64 and base64url, for each case variant.
 */
function base64Forms(secret: string): string[] {
  const forms = caseVariants(secret).flatMap((v) =>
    [0, 1, 2].map((offset) => {
      const bytes = Buffer.concat([Buffer.alloc(offset), Buffer.from(v)]);
      const text = bytes.toString('base64').replace(/=+$/, '');
      // The first characters also encode the padding before it, the last one the bytes after it.
      return text.slice([0, 2, 3][offset], bytes.length % 3 ? -1 : undefined);
    }),
  );
  return [...new Set([...forms, ...forms.map((f) => f.replace(/\+/g, '-').replace(/\//g, '_'))])].filter((f) => f.length >= MIN_BASE64_RUN);
}

const runsOf = (secret: string) => Array.from({ length: Math.max(0, secret.length - SECRET_RUN + 1) }, (_, i) => secret.slice(i, i + SECRET_RUN));

const alternation = (forms: string[]) =>
  [...new Set(forms)]
    // Longest forms first: at a place where several match, the longest is taken.
    .sort((a, b) => b.length - a.length)
    .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');

/** Any value of any length, but an empty one, which would match everywhere. */
export function registerSecret(value: string | undefined): void {
  if (!value?.trim() || secrets.has(value)) return;
  secrets.add(value);
  const all = [...secrets];
  wholeForms = new Set(all.flatMap(wholeFormsOf).map((f) => f.toLowerCase()));
  textPattern = new RegExp(alternation([...all.flatMap(wholeFormsOf), ...all.flatMap(runsOf)]), 'gi');
  const base64 = all.flatMap(base64Forms);
  base64Pattern = base64.length ? new RegExp(alternation(base64), 'g') : undefined;
}

/** The characters of a key or token: a partial match (a run, base64) grows to the whole run of them around it, so no fragment is left. */
const TOKEN_CHAR = /[0-9A-Za-z_+/-]/;

/** Every match replaced; one that is not a whole secret grown to its token by hand: a token class around the forms in the expression would backtrack over long ids. */
function replaceMatches(text: string, pattern: RegExp | undefined, isWhole: (match: string) => boolean): string {
  if (!pattern) return text;
  pattern.lastIndex = 0;
  let out = '';
  let done = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    let start = m.index;
    let end = start + m[0].length;
    if (!isWhole(m[0])) {
      while (start > done && TOKEN_CHAR.test(text[start - 1])) start--;
      while (end < text.length && TOKEN_CHAR.test(text[end])) end++;
      // base64's padding: not grown backwards, so that the `=` after a query parameter's name stays.
      while (text[end] === '=') end++;
    }
    out += text.slice(done, start) + REDACTED;
    done = end;
    pattern.lastIndex = end;
  }
  return done === 0 ? text : out + text.slice(done);
}

/** The registered secrets, in every form, replaced; nothing else touched. */
export function redactSecrets(text: string): string {
  const once = replaceMatches(text, base64Pattern, () => false);
  return replaceMatches(once, textPattern, (m) => wholeForms.has(m.toLowerCase()));
}

export function redact(text: string): string {
  const out = redactSecrets(text);
  // An Authorization header's credentials are never shown; they stop at a backslash, which in JSON text escapes the closing quote.
  // A shell variable in their place (a reproduce command's `$API_KEY`, `$(printf …)`) is no credential and stays.
  return out.replace(/(authorization["']?\s*[:=]\s*["']?)([A-Za-z]+ )?([^\s"',}\\]+)/gi, (m, head: string, scheme = '', value: string) =>
    value.startsWith('$') ? m : `${head}${scheme}${REDACTED}`,
  );
}
