/**
 * Secrets never reach a report or the console: every text the suite shows passes through `redact`.
 * The secrets are registered once per process from the configuration. What is redacted is not only the
 * secret as is but what a target may echo of it: its base64 forms (a Basic header) and any long run of
 * its characters (a key with one character changed, a key split at a space).
 */
const secrets = new Set<string>();
let pattern: RegExp | undefined;

export const REDACTED = '«redacted»';

/** A shared run of this many characters counts as the secret. */
export const SECRET_RUN = 12;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The secret, its base64 forms, and every run of SECRET_RUN of its characters. */
export function secretForms(secret: string): string[] {
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
  // Longest forms first; a match grows to the whole token around it, so no fragment is left behind.
  const forms = [...secrets]
    .flatMap(secretForms)
    .sort((a, b) => b.length - a.length)
    .map(escapeRe);
  pattern = new RegExp(`[A-Za-z0-9_+/=-]*(?:${forms.join('|')})[A-Za-z0-9_+/=-]*`, 'g');
}

export function redact(text: string): string {
  const out = pattern ? text.replace(pattern, REDACTED) : text;
  // Whatever the value, an Authorization header's credentials are never shown.
  // The credential stops at a backslash too: inside JSON text (a report's curl line) it escapes the closing quote.
  return out.replace(/(authorization["']?\s*[:=]\s*["']?)([A-Za-z]+ )?[^\s"',}\\]+/gi, (_m, head: string, scheme = '') => `${head}${scheme}${REDACTED}`);
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = k.toLowerCase() === 'authorization' ? REDACTED : redact(v);
  return out;
}
