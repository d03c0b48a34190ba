/**
 * Secrets never reach a report or the console: every text the suite shows passes through `redact`.
 * The secrets are registered once per process from the configuration.
 */
const secrets = new Set<string>();

export const REDACTED = '«redacted»';

export function registerSecret(value: string | undefined): void {
  // Very short values would redact ordinary words; real keys and GUIDs are long.
  if (value && value.length >= 6) secrets.add(value);
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join(REDACTED);
  // Whatever the value, an Authorization header's credentials are never shown.
  return out.replace(/(authorization["']?\s*[:=]\s*["']?)([A-Za-z]+ )?[^\s"',}]+/gi, (_m, head: string, scheme = '') => `${head}${scheme}${REDACTED}`);
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = k.toLowerCase() === 'authorization' ? REDACTED : redact(v);
  return out;
}
