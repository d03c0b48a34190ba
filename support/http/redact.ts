/**
 * Secrets never reach a report or the console: every text shown passes through `redact`, which also catches what a target may echo of
 * a secret (its base64 forms, a long run of its characters).
 */
const secrets = new Set<string>();
let pattern: RegExp | undefined;

export const REDACTED = '«redacted»';

/** A shared run of this many characters counts as the secret. */
export const SECRET_RUN = 12;

/** The secret, its base64 forms, and every run of SECRET_RUN of its characters. */
function secretForms(secret: string): string[] {
  const forms = new Set([secret, ...[secret, `${secret}:`, `:${secret}`].map((s) => Buffer.from(s).toString('base64').replace(/=+$/, ''))]);
  for (let i = 0; i + SECRET_RUN <= secret.length; i++) forms.add(secret.slice(i, i + SECRET_RUN));
  return [...forms];
}

/** Whether `text` holds the secret or anything recognisably derived from it. */
export function containsSecret(text: string, secret: string): boolean {
  return secretForms(secret).some((f) => text.includes(f));
}

export function registerSecret(value: string | undefined): void {
  // Very short values would redact ordinary words; real keys and GUIDs are long.
  if (!value || value.length < SECRET_RUN || secrets.has(value)) return;
  secrets.add(value);
  // Longest forms first: at a place where several match, the longest is taken.
  const forms = [...secrets]
    .flatMap(secretForms)
    .sort((a, b) => b.length - a.length)
    .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  pattern = new RegExp(forms.join('|'), 'g');
}

/** The characters of a key or token: a match grows to the whole run of them around it, so no fragment is left behind. */
const TOKEN_CHAR = /[0-9A-Za-z_+/=-]/;

/** Every secret form, grown to its token by hand: a token class around the forms in the expression would backtrack over long ids. */
function redactSecrets(text: string): string {
  if (!pattern) return text;
  pattern.lastIndex = 0;
  let out = '';
  let done = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    let start = m.index;
    let end = start + m[0].length;
    while (start > done && TOKEN_CHAR.test(text[start - 1])) start--;
    while (end < text.length && TOKEN_CHAR.test(text[end])) end++;
    out += text.slice(done, start) + REDACTED;
    done = end;
    pattern.lastIndex = end;
  }
  return done === 0 ? text : out + text.slice(done);
}

export function redact(text: string): string {
  const out = redactSecrets(text);
  // An Authorization header's credentials are never shown; they stop at a backslash, which in JSON text escapes the closing quote.
  return out.replace(/(authorization["']?\s*[:=]\s*["']?)([A-Za-z]+ )?[^\s"',}\\]+/gi, (_m, head: string, scheme = '') => `${head}${scheme}${REDACTED}`);
}
